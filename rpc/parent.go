package rpc

import "time"

// parentPoll is how often hookd checks that the host named by processId lives.
// Polling is what LSP servers do for processId; the check is one cheap syscall.
const parentPoll = time.Second

// watchParent ends the session like exit (code 1) when the host process dies,
// so handlers are never left running for a host that is gone.
func (s *Server) watchParent(pid int) {
	t := time.NewTicker(parentPoll)
	defer t.Stop()
	for {
		select {
		case <-s.base.Done():
			return
		case <-t.C:
			if !processAlive(pid) {
				s.log.Warn("host process is gone; exiting", "pid", pid)
				s.exit(1)
				return
			}
		}
	}
}
