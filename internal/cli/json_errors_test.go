package cli

import "testing"

func TestJSONErrorPosition_PointsAtTheBadByte(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a": 1,, }`, " (line 1, column 9: "},
		{"{\n  \"a\": 1\n  ]\n}", " (line 3, column 3: "},
		{`{"a": 1}`, ""},
	}
	for _, c := range cases {
		got := jsonErrorPosition([]byte(c.in))
		if len(got) < len(c.want) || got[:len(c.want)] != c.want {
			t.Errorf("jsonErrorPosition(%q) = %q, want it to start with %q", c.in, got, c.want)
		}
	}
}
