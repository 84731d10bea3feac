package proc

import (
	"os"
	"sync"
)

// pipes are a hook's stdin, stdout and stderr: hookd's ends (in, out, err)
// and the child's (childIn, childOut, childErr). in and childIn are nil for
// a hook with no payload, which reads from the null device.
type pipes struct {
	in, out, err                *os.File
	childIn, childOut, childErr *os.File
}

// spare is a set of pipes, stdin's included, made ahead for the next hook:
// on Linux a hook's reaping, after its reply, makes the next hook's pipes,
// which then cost nothing on the way from its request to its start. One
// set is kept at most. A pipe no hook has had is as new as one made when
// the hook starts, and like every pipe here it closes on exec, so no
// process gets it.
var spare struct {
	mu sync.Mutex
	p  *pipes
}

// make gives the pipes of a hook, stdin's only when withStdin: the spare
// set when there is one and it is wanted, else new ones.
func (p *pipes) make(withStdin bool) error {
	if withStdin {
		spare.mu.Lock()
		s := spare.p
		spare.p = nil
		spare.mu.Unlock()
		if s != nil {
			*p = *s
			return nil
		}
	}
	return p.open(withStdin)
}

// makeSpare makes the spare set, unless there is one. A set that cannot be
// made (no descriptor left, say) is not: the next hook tries on its own.
func makeSpare() {
	spare.mu.Lock()
	have := spare.p != nil
	spare.mu.Unlock()
	if have {
		return
	}
	s := &pipes{}
	if err := s.open(true); err != nil {
		s.closeAll()
		return
	}
	spare.mu.Lock()
	if spare.p == nil {
		spare.p, s = s, nil
	}
	spare.mu.Unlock()
	if s != nil {
		s.closeAll() // another was made meanwhile
	}
}

// open opens new pipes, stdin's only when withStdin.
func (p *pipes) open(withStdin bool) error {
	var err error
	if withStdin {
		if p.childIn, p.in, err = childPipe(false); err != nil {
			return err
		}
	}
	if p.out, p.childOut, err = childPipe(true); err != nil {
		return err
	}
	p.err, p.childErr, err = childPipe(true)
	return err
}

// closeChildEnds closes hookd's copies of the child's ends once the child
// has its own (or will never have them), so that the child's exit, and its
// helpers', is what ends the output.
func (p *pipes) closeChildEnds() {
	for _, f := range []*os.File{p.childIn, p.childOut, p.childErr} {
		if f != nil {
			f.Close()
		}
	}
}

// closeAll closes every end still open; closing one twice does nothing.
func (p *pipes) closeAll() {
	p.closeChildEnds()
	for _, f := range []*os.File{p.in, p.out, p.err} {
		if f != nil {
			f.Close()
		}
	}
}
