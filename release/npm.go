package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// npm assembles @hookd/hookd from node/ and one @hookd/PLATFORM package per
// built target, and packs them all into out/npm with one `npm pack`.
//
// node/package.json is the package as developed (its tests, devDependencies,
// a lock file npm ci can install). The published one gets the release
// version, loses what only development needs, and gains the optional
// dependencies on the binary packages: listed in the source, npm ci would
// look for them in the registry.
func (b *builder) npm(ctx context.Context) ([]string, error) {
	stage := filepath.Join(b.out, "npm", "stage")
	var dirs []string

	src := filepath.Join(b.repo, "node")
	manifest, err := os.ReadFile(filepath.Join(src, "package.json"))
	if err != nil {
		return nil, err
	}
	main := filepath.Join(stage, "hookd")
	files := []string{"package.json", "README.md", "LICENSE"}
	for _, f := range gjson.GetBytes(manifest, "files").Array() {
		files = append(files, f.String())
	}
	pkg, err := sjson.Set(string(manifest), "version", b.opts.Version)
	if err != nil {
		return nil, err
	}
	for _, del := range []string{"devDependencies", "scripts"} {
		if pkg, err = sjson.Delete(pkg, del); err != nil {
			return nil, err
		}
	}
	optional := map[string]string{}
	for _, bt := range b.bins {
		optional["@hookd/"+bt.t.Node()] = b.opts.Version
	}
	if pkg, err = sjson.Set(pkg, "optionalDependencies", optional); err != nil {
		return nil, err
	}
	for _, f := range files {
		from := filepath.Join(src, f)
		switch f {
		case "package.json":
			var pretty bytes.Buffer
			if err = json.Indent(&pretty, []byte(pkg), "", "  "); err == nil {
				err = writeFile(filepath.Join(main, f), append(pretty.Bytes(), '\n'), 0o644)
			}
		case "LICENSE":
			err = copyFile(filepath.Join(b.repo, f), filepath.Join(main, f), 0o644)
		default:
			mode := os.FileMode(0o644)
			if st, serr := os.Stat(from); serr == nil && st.Mode()&0o111 != 0 {
				mode = 0o755
			}
			err = copyFile(from, filepath.Join(main, f), mode)
		}
		if err != nil {
			return nil, fmt.Errorf("assemble @hookd/hookd: %w", err)
		}
	}
	dirs = append(dirs, main)

	for _, bt := range b.bins {
		dir := filepath.Join(stage, bt.t.Node())
		manifest, err := json.MarshalIndent(platformPackage{
			Name:            "@hookd/" + bt.t.Node(),
			Version:         b.opts.Version,
			Description:     "The hookd binary for " + bt.t.Node() + "; install @hookd/hookd, which depends on it",
			License:         "MIT",
			Repository:      repository{Type: "git", URL: "git+https://github.com/hookd/hookd.git"},
			OS:              []string{nodeOS(bt.t.GOOS)},
			CPU:             []string{nodeCPU(bt.t.GOARCH)},
			Files:           []string{"bin/" + bt.t.Exe()},
			PreferUnplugged: true,
		}, "", "  ")
		if err != nil {
			return nil, err
		}
		readme := fmt.Sprintf("# @hookd/%s\n\nThe hookd binary for %s. Depend on `@hookd/hookd` instead: it installs\nthis package on %s and finds the binary in it.\n", bt.t.Node(), bt.t.Node(), bt.t.Node())
		for _, err := range []error{
			writeFile(filepath.Join(dir, "package.json"), append(manifest, '\n'), 0o644),
			writeFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644),
			copyFile(filepath.Join(b.repo, "LICENSE"), filepath.Join(dir, "LICENSE"), 0o644),
			copyFile(bt.bin, filepath.Join(dir, "bin", bt.t.Exe()), 0o755),
		} {
			if err != nil {
				return nil, fmt.Errorf("assemble @hookd/%s: %w", bt.t.Node(), err)
			}
		}
		dirs = append(dirs, dir)
	}

	dest := filepath.Join(b.out, "npm")
	fmt.Fprintf(b.log, "npm pack %d packages\n", len(dirs))
	cmd := exec.CommandContext(ctx, "npm", append([]string{"pack", "--json", "--pack-destination", dest}, dirs...)...)
	cmd.Dir = stage
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("npm pack: %w\n%s", err, stderr.String())
	}
	var packed []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(out, &packed); err != nil {
		return nil, fmt.Errorf("read npm pack's answer: %w\n%s", err, out)
	}
	var tgzs []string
	for _, p := range packed {
		tgzs = append(tgzs, filepath.Join(dest, p.Filename))
	}
	return tgzs, os.RemoveAll(stage)
}

type repository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// platformPackage is the package.json of a binary package: npm installs it
// only where os and cpu match (esbuild's and biome's layout).
type platformPackage struct {
	Name            string     `json:"name"`
	Version         string     `json:"version"`
	Description     string     `json:"description"`
	License         string     `json:"license"`
	Repository      repository `json:"repository"`
	OS              []string   `json:"os"`
	CPU             []string   `json:"cpu"`
	Files           []string   `json:"files"`
	PreferUnplugged bool       `json:"preferUnplugged"`
}

func nodeOS(goos string) string {
	if goos == "windows" {
		return "win32"
	}
	return goos
}

func nodeCPU(goarch string) string {
	if goarch == "amd64" {
		return "x64"
	}
	return goarch
}

func writeFile(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, mode); err != nil {
		return err
	}
	return os.Chmod(path, mode)
}

func copyFile(from, to string, mode os.FileMode) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return writeFile(to, data, mode)
}
