package proc

import "os"

// pipes are a hook's stdin, stdout and stderr: hookd's ends (in, out, err)
// and the child's (childIn, childOut, childErr). in and childIn are nil for
// a hook with no payload, which reads from the null device.
type pipes struct {
	in, out, err                *os.File
	childIn, childOut, childErr *os.File
}

// make opens the pipes, stdin's only when withStdin.
func (p *pipes) make(withStdin bool) error {
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
