package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/load"
)

// gitPrefix marks a location read from git history: git:<ref>:<path>.
const gitPrefix = "git:"

// location is where a document comes from: a file, or a path at a git ref.
type location struct {
	given string // as the user wrote it, for messages
	file  string // local file (absolute when Dir was set), or ""
	ref   string // git ref, when read from git
	path  string // path inside the ref, as `git show <ref>:<path>` takes it
}

func parseLocation(given, dir string) (location, error) {
	if given == "" {
		return location{}, errors.New("empty location")
	}
	rest, isGit := strings.CutPrefix(given, gitPrefix)
	if !isGit {
		file := given
		if dir != "" && !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		return location{given: given, file: file}, nil
	}
	ref, path, found := strings.Cut(rest, ":")
	if !found || ref == "" || path == "" {
		return location{}, fmt.Errorf("%q: want git:<ref>:<path>, such as git:v1.4.0:openapi.yaml", given)
	}
	if strings.HasPrefix(ref, "-") {
		return location{}, fmt.Errorf("%q: a git ref cannot start with '-'", given)
	}
	return location{given: given, ref: ref, path: path}, nil
}

// read returns the bytes at the location. dir is where git runs ("" for the
// current directory).
func (l location) read(ctx context.Context, dir string) ([]byte, error) {
	if l.ref != "" {
		return gitRead(ctx, dir, l.ref, l.path)
	}
	data, err := os.ReadFile(l.file)
	if errors.Is(err, fs.ErrNotExist) && strings.Contains(l.given, ":") {
		return nil, fmt.Errorf("%w (to read from git history, write git:%s)", err, l.given)
	}
	return data, err
}

// gitRead reads <ref>:<path> with git show, after asking git separately
// whether the ref and the path exist, so each failure gets its own message
// instead of git's "fatal: invalid object name".
func gitRead(ctx context.Context, dir, ref, path string) ([]byte, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("git:%s:%s: git is not installed or not in PATH", ref, path)
	}
	if _, err := git(ctx, dir, "rev-parse", "--git-dir"); err != nil {
		return nil, fmt.Errorf("git:%s:%s: not inside a git repository: %w", ref, path, err)
	}
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{tree}"); err != nil {
		return nil, fmt.Errorf("git ref %q does not exist in this repository "+
			"(list tags with `git tag`; a CI checkout may need the full history and tags, e.g. actions/checkout with fetch-depth: 0)", ref)
	}
	kind, err := git(ctx, dir, "cat-file", "-t", ref+":"+path)
	if err != nil {
		return nil, fmt.Errorf("path %q does not exist at git ref %q "+
			"(the path is relative to the repository root; start it with ./ for the current directory)", path, ref)
	}
	if k := strings.TrimSpace(string(kind)); k != "blob" {
		return nil, fmt.Errorf("path %q at git ref %q is a %s, not a file", path, ref, k)
	}
	return git(ctx, dir, "show", "--no-textconv", ref+":"+path)
}

func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%s", msg)
		}
		return nil, err
	}
	return out, nil
}

// loadSpec parses and validates an OpenAPI document with oasdiff's loader.
// Relative $refs are followed only for local files: a document from git
// history would otherwise resolve them against today's working tree.
func loadSpec(ctx context.Context, l location, data []byte) (*load.SpecInfo, error) {
	loader := openapi3.NewLoader()
	loader.Context = ctx
	name := l.given
	if l.file != "" {
		// Local files only: a contract check must not reach the network.
		loader.IsExternalRefsAllowed = true
		loader.ReadFromURIFunc = openapi3.ReadFromFile
		if abs, err := filepath.Abs(l.file); err == nil {
			name = abs
		}
	}
	info, err := load.NewSpecInfoFromData(loader, data, name)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable OpenAPI document: %w", l.given, err)
	}
	info.Url = l.given
	if err := info.Spec.Validate(ctx); err != nil {
		return nil, fmt.Errorf("%s: invalid OpenAPI document: %w", l.given, err)
	}
	return info, nil
}
