package rpc

import (
	"context"
	"strings"
)

func init() {
	methods["hooks/setEnabled"] = method{handle: hooksSetEnabled, serial: true}
}

type hooksSetEnabledParams struct {
	Key     *string `json:"key"`
	Enabled *bool   `json:"enabled"`
}

type hooksSetEnabledResult struct {
	Key     string `json:"key"`
	Enabled bool   `json:"enabled"`
}

// hooksSetEnabled records whether a hook may run, in the user config.toml,
// and reloads the hook set. The result is the hook's enabled state after the
// reload.
func hooksSetEnabled(ctx context.Context, s *Server, params []byte) (any, error) {
	var p hooksSetEnabledParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.Key == nil {
		return nil, invalidParams("invalid params: field \"key\" is required")
	}
	if p.Enabled == nil {
		return nil, invalidParams("invalid params: field \"enabled\" is required (true or false)")
	}
	e := s.Engine()
	if err := e.SetEnabled(ctx, *p.Key, *p.Enabled); err != nil {
		return nil, engineError(err)
	}
	s.reloadAfterWrite(e)
	key := strings.TrimSpace(*p.Key)
	res := hooksSetEnabledResult{Key: key, Enabled: *p.Enabled}
	list, _ := e.List("")
	for _, h := range list {
		if h.Key == key {
			res.Enabled = h.Enabled
		}
	}
	return res, nil
}
