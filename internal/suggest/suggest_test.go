package suggest

import "testing"

func TestNearest_CaseThenEditsThenNothing(t *testing.T) {
	tools := []string{"Bash", "Write", "Edit", "Read"}
	for got, want := range map[string]string{
		"bash": "Bash", // case only
		"Bsah": "Bash", // an adjacent swap
		"Wrte": "Write",
		"Bash": "", // known
		"Zzzz": "", // nothing near
		"E":    "", // as many edits as characters: not a suggestion
	} {
		k, ok := Nearest(got, tools)
		if k != want || ok != (want != "") {
			t.Errorf("Nearest(%q) = %q, %v; want %q", got, k, ok, want)
		}
	}
	if s := DidYouMean("Bsah", tools); s != ` (did you mean "Bash"?)` {
		t.Errorf("DidYouMean = %q", s)
	}
}
