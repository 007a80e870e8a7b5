package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
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
func (l location) read(ctx context.Context, dir string, maxBytes int64) ([]byte, error) {
	if l.ref != "" {
		return gitRead(ctx, dir, l.ref, l.path, maxBytes)
	}
	data, err := readRegularFile(l.file, maxBytes)
	var pathErr *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist) && strings.Contains(l.given, ":"):
		return nil, fmt.Errorf("%w (to read from git history, write git:%s)", err, l.given)
	case err != nil && !errors.As(err, &pathErr):
		return nil, fmt.Errorf("%s: %w", l.given, err) // the path error names the file itself
	}
	return data, err
}

// gitRead reads <ref>:<path> with git show, after asking git separately
// whether the ref and the path exist, so each failure gets its own message
// instead of git's "fatal: invalid object name".
func gitRead(ctx context.Context, dir, ref, path string, maxBytes int64) ([]byte, error) {
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
	size, err := git(ctx, dir, "cat-file", "-s", ref+":"+path)
	if err != nil {
		return nil, err
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(string(size)), 10, 64); err != nil || n > maxBytes {
		return nil, fmt.Errorf("git:%s:%s: %w", ref, path, tooLarge(maxBytes))
	}
	data, err := gitShow(ctx, dir, ref+":"+path, maxBytes)
	if err != nil {
		return nil, fmt.Errorf("git:%s:%s: %w", ref, path, err)
	}
	return data, nil
}

// gitShow reads a blob with git show, at most maxBytes of it: git's output
// is read through a bounded reader and git is stopped when it says more.
func gitShow(ctx context.Context, dir, object string, maxBytes int64) ([]byte, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "show", "--no-textconv", object)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	data, readErr := readAtMost(out, maxBytes)
	if readErr != nil {
		cancel() // stop git; its exit status no longer matters
		_ = cmd.Wait()
		return nil, readErr
	}
	if err := cmd.Wait(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%s", msg)
		}
		return nil, err
	}
	return data, nil
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

// loadSpec parses and validates an OpenAPI document with kin-openapi, after
// scanDocument has checked its aliases, references and version. The loader
// may not read anything else: external references are disallowed, and the
// function it would read them with refuses every location, so neither a
// file nor the network is ever opened on the document's behalf.
// newLoader returns a kin-openapi loader that reads nothing but the data it
// is given.
func newLoader(ctx context.Context) *openapi3.Loader {
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = false
	loader.ReadFromURIFunc = func(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
		return nil, fmt.Errorf("reference to %s refused: only references inside the document are followed", quoteShort(u.String()))
	}
	return loader
}

func loadSpec(ctx context.Context, l location, data []byte, lim Limits) (*load.SpecInfo, error) {
	if err := scanDocument(data, lim); err != nil {
		return nil, fmt.Errorf("%s: %w", l.given, err)
	}
	spec, err := newLoader(ctx).LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable OpenAPI document: %w", l.given, err)
	}
	if !strings.HasPrefix(spec.OpenAPI, "3.0.") {
		// the scan read the first "openapi" key; a decoder keeps the last
		return nil, fmt.Errorf("%s: openapi %s: the gate judges OpenAPI 3.0 documents only", l.given, quoteShort(spec.OpenAPI))
	}
	if err := spec.Validate(ctx); err != nil {
		return nil, fmt.Errorf("%s: invalid OpenAPI document: %w", l.given, err)
	}
	version := ""
	if spec.Info != nil {
		version = spec.Info.Version
	}
	return &load.SpecInfo{Url: l.given, Spec: spec, Version: version}, nil
}
