package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/all"
	"github.com/modelgen/modelgen/internal/fsread"
	"github.com/modelgen/modelgen/internal/writer"
	"github.com/modelgen/modelgen/model"
)

// ConfigFile is the name of the settings file beside a package.
const ConfigFile = "modelgen.yaml"

// maxConfigBytes bounds a modelgen.yaml: a handful of settings.
const maxConfigBytes = 1 << 20

// readConfigFile reads the modelgen.yaml at path, if there is one: a
// regular file of at most maxConfigBytes, else an error at the file.
func readConfigFile(path string, diags *model.Diagnostics) ([]byte, bool) {
	data, err := fsread.File(path, maxConfigBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false
	case err != nil:
		diags.Errorf(model.Pos{File: path, Line: 1, Col: 1}, "%s: %s", ConfigFile, fsread.Describe(err))
		return nil, false
	}
	return data, true
}

// readConfig lays the settings of a modelgen.yaml over cfg. Every mistake
// (bad YAML, an unknown or repeated key, a value of the wrong type) is an
// error at its place in the file; where the file sets each setting is
// returned, for the checks that come later.
func readConfig(path string, data []byte, keys []gen.Key, cfg *gen.Config) (map[string]model.Pos, model.Diagnostics) {
	var diags model.Diagnostics
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := yamlError(err)
		diags.Errorf(model.Pos{File: path, Line: line, Col: 1}, "%s is not valid YAML: %s", ConfigFile, msg)
		return nil, diags
	}
	if len(doc.Content) == 0 {
		return nil, nil // an empty file sets nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		diags.Errorf(nodePos(path, root), "%s must be a mapping of settings (%s)", ConfigFile, strings.Join(settingNames(keys), ", "))
		return nil, diags
	}
	fields := map[string]gen.Key{}
	for _, k := range keys {
		fields[k.Name] = k
	}
	set := map[string]model.Pos{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, value := root.Content[i], root.Content[i+1]
		k, known := fields[key.Value]
		switch {
		case !known:
			diags.Errorf(nodePos(path, key), "unknown setting %q (known: %s)", key.Value, strings.Join(settingNames(keys), ", "))
			continue
		case set[key.Value].IsValid():
			diags.Errorf(nodePos(path, key), "setting %q is repeated (first set at line %d)", key.Value, set[key.Value].Line)
			continue
		}
		set[key.Value] = nodePos(path, value)
		field := reflect.New(k.Field().Type).Elem()
		if err := decodeScalar(value, field); err != nil {
			diags.Errorf(nodePos(path, value), "setting %q: %v", key.Value, err)
			continue
		}
		if k.Path != "" && field.IsZero() && k.Default != "" {
			field.Set(reflect.ValueOf(k.Default)) // an empty path is the default
		}
		*cfg = cfg.With(k, field.Interface())
	}
	return set, diags
}

// decodeScalar sets a string or bool setting from a scalar node.
func decodeScalar(n *yaml.Node, field reflect.Value) error {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return fmt.Errorf("want a %s", kindName(field.Kind()))
	}
	switch field.Kind() {
	case reflect.String:
		if n.Tag != "!!str" {
			return fmt.Errorf("want a string, got %s (quote it)", n.Value)
		}
		field.SetString(n.Value)
	case reflect.Bool:
		b, err := strconv.ParseBool(n.Value)
		if n.Tag != "!!bool" || err != nil {
			return fmt.Errorf("want true or false, got %s", n.Value)
		}
		field.SetBool(b)
	default:
		return fmt.Errorf("settings of kind %s are not supported", field.Kind())
	}
	return nil
}

func kindName(k reflect.Kind) string {
	if k == reflect.Bool {
		return "boolean"
	}
	return k.String()
}

// settingNames are the settings' names, in the order of gen/all's keys.
func settingNames(keys []gen.Key) []string {
	var out []string
	for _, k := range keys {
		out = append(out, k.Name)
	}
	return out
}

func nodePos(path string, n *yaml.Node) model.Pos {
	return model.Pos{File: path, Line: n.Line, Col: n.Column}
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

// yamlError splits a YAML syntax error into its line and its message.
func yamlError(err error) (int, string) {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n, msg[len(m[0]):]
		}
	}
	return 1, strings.TrimPrefix(msg, "yaml: ")
}

// outputPath is a setting that names where output goes (a key with a
// path tag, gen.Key.Path).
type outputPath struct {
	key  gen.Key
	name string // the modelgen.yaml key
	flag string // the command-line flag that overrides it, if any
	file bool   // a file, else a directory
	// fromModule: relative to the module root, else to the package directory
	fromModule bool
}

// pathFlags are the flags that override a path setting.
var pathFlags = map[string]string{"openapi": "--openapi-out", "crdDir": "--crd-dir"}

// outputPaths are the settings with a path tag.
func outputPaths(keys []gen.Key) []outputPath {
	var out []outputPath
	for _, k := range keys {
		if k.Path == "" {
			continue
		}
		base, kind, _ := strings.Cut(k.Path, ",")
		out = append(out, outputPath{key: k, name: k.Name, flag: pathFlags[k.Name], file: kind == "file", fromModule: base == "module"})
	}
	return out
}

func (o outputPath) get(c *gen.Config) string { s, _ := c.Get(o.key).(string); return s }

// checkPaths refuses output paths of modelgen.yaml that would write
// outside the module or over a file modelgen did not generate, each at its
// value in the file. Values given by flags are checkFlagPaths' concern.
func checkPaths(pk *model.Package, keys []gen.Key, cfg *gen.Config, set map[string]model.Pos, flags generateFlags) model.Diagnostics {
	var diags model.Diagnostics
	for _, o := range outputPaths(keys) {
		if o.flag != "" && flags.value(o.flag) != "" {
			continue
		}
		err := o.check(pk, o.get(cfg))
		pos, ok := set[o.name]
		switch {
		case err == nil:
		case ok:
			diags.Errorf(pos, "setting %q: %v", o.name, err)
		default:
			// a default path: the file in the way is the place
			diags.Errorf(model.Pos{File: o.target(pk, o.get(cfg)), Line: 1, Col: 1}, "%v; delete it, or set %q in %s to write elsewhere", err, o.name, ConfigFile)
		}
	}
	return diags
}

// checkHeader checks the header setting, at its value: the file must lie
// inside the module (symbolic links count, as for output paths: a
// committed modelgen.yaml must not make a run read the machine's files), be
// a regular file of at most maxHeaderBytes, and be a valid header, each
// problem at its line in the header file. No message quotes the file. The
// --header-file flag overrides the setting (and is checked when read).
func checkHeader(pk *model.Package, cfg *gen.Config, set map[string]model.Pos, flags generateFlags) model.Diagnostics {
	var diags model.Diagnostics
	pos, ok := set["header"]
	if !ok || cfg.Header == "" || flags.headerFile != "" {
		return nil
	}
	if err := headerInModule(pk, cfg.Header); err != nil {
		diags.Errorf(pos, "setting \"header\": %v", err)
		return diags
	}
	path := filepath.Join(pk.Dir, cfg.Header)
	data, err := fsread.File(path, maxHeaderBytes)
	if err != nil {
		diags.Errorf(pos, "setting \"header\": %q (relative to the package directory): %s", cfg.Header, fsread.Describe(err))
		return diags
	}
	for _, p := range writer.HeaderProblems(string(data)) {
		diags.Errorf(model.Pos{File: path, Line: p.Line, Col: p.Col}, "header (setting \"header\" of %s): %s", filepath.Join(pk.Dir, ConfigFile), p.Msg)
	}
	return diags
}

// headerInModule confines the header setting like the output paths.
func headerInModule(pk *model.Package, value string) error {
	target := filepath.Join(pk.Dir, value)
	switch {
	case filepath.IsAbs(value) || strings.HasPrefix(value, "/") || filepath.VolumeName(value) != "":
		return fmt.Errorf("%q is absolute; give a path relative to the package directory, inside the module", value)
	case pk.ModDir == "":
		return nil
	case !inside(pk.ModDir, target):
		return fmt.Errorf("%q (relative to the package directory) is outside the module (root %s)", value, pk.ModDir)
	case !inside(realPath(pk.ModDir), realPath(target)):
		return fmt.Errorf("%q leads outside the module (root %s) through a symbolic link", value, pk.ModDir)
	}
	return nil
}

// checkFlagPaths applies the same checks to the path flags, for every
// package of the run.
func checkFlagPaths(m *model.Model, keys []gen.Key, flags generateFlags) error {
	for _, o := range outputPaths(keys) {
		value := flags.value(o.flag)
		if o.flag == "" || value == "" {
			continue
		}
		for _, pk := range m.Packages {
			if err := o.check(pk, value); err != nil {
				return fmt.Errorf("%s: %v (package %s)", o.flag, err, pk.Path)
			}
		}
	}
	return nil
}

func (o outputPath) base(pk *model.Package) (dir, name string) {
	if o.fromModule {
		return pk.ModDir, "the module root"
	}
	return pk.Dir, "the package directory"
}

func (o outputPath) target(pk *model.Package, value string) string {
	base, _ := o.base(pk)
	return filepath.Join(base, value)
}

func (o outputPath) check(pk *model.Package, value string) error {
	_, baseName := o.base(pk)
	switch {
	case value == "":
		return errors.New("empty path")
	case filepath.IsAbs(value) || strings.HasPrefix(value, "/") || filepath.VolumeName(value) != "":
		return fmt.Errorf("%q is absolute; give a path relative to %s", value, baseName)
	case o.file && !isYAMLName(value):
		return fmt.Errorf("%q: the OpenAPI document is YAML, its name must end in .yaml or .yml", value)
	}
	target := o.target(pk, value)
	switch {
	case pk.ModDir == "":
		// not in a module: nothing to stay inside
	case !inside(pk.ModDir, target):
		return fmt.Errorf("%q (relative to %s) is outside the module (root %s)", value, baseName, pk.ModDir)
	case !inside(realPath(pk.ModDir), realPath(target)):
		return fmt.Errorf("%q leads outside the module (root %s) through a symbolic link", value, pk.ModDir)
	}
	fi, err := os.Stat(target)
	switch {
	case err != nil:
		return nil // not there yet
	case !o.file && !fi.IsDir():
		return fmt.Errorf("%q is an existing file, not a directory", value)
	case o.file && fi.IsDir():
		return fmt.Errorf("%q is a directory, not a file", value)
	case o.file && !generatedYAML(target):
		return fmt.Errorf("%q is an existing file that modelgen did not generate, and it will not be overwritten", value)
	}
	return nil
}

func isYAMLName(path string) bool {
	ext := filepath.Ext(path)
	return ext == ".yaml" || ext == ".yml"
}

// inside reports whether path is dir or lies below it.
func inside(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// realPath resolves the symbolic links of the longest part of path that
// exists.
func realPath(path string) string {
	rest := ""
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		if filepath.Dir(p) == p {
			return path
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// generatedYAML reports whether a YAML file carries modelgen's header.
func generatedYAML(path string) bool {
	data, err := fsread.Head(path, 4096)
	if err != nil {
		return false
	}
	lines := strings.SplitN(string(data), "\n", 3)
	for _, l := range lines[:min(2, len(lines))] {
		if strings.HasPrefix(l, "# Code generated by modelgen ") {
			return true
		}
	}
	return false
}

// value is the value given to a path flag.
func (fl generateFlags) value(flag string) string {
	switch flag {
	case "--openapi-out":
		return fl.openapiOut
	case "--crd-dir":
		return fl.crdDir
	}
	return ""
}

// configFiles reads each modelgen.yaml of a run once: the load asks a
// package's declared keywords (model.Config.ValidatorKeywords) before the
// settings are read, and both must see the same bytes.
type configFiles struct {
	mu    sync.Mutex
	files map[string]configFile
	keys  func() ([]gen.Key, error)
}

// configFile is one read of a modelgen.yaml: ok when it exists and could be
// read, diags its mistake when it could not.
type configFile struct {
	data  []byte
	ok    bool
	diags model.Diagnostics
}

func newConfigFiles() *configFiles {
	return &configFiles{files: map[string]configFile{}, keys: sync.OnceValues(all.Keys)}
}

// read returns the modelgen.yaml at path as the run's first read found it.
func (c *configFiles) read(path string) configFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, done := c.files[path]
	if !done {
		f.data, f.ok = readConfigFile(path, &f.diags)
		c.files[path] = f
	}
	return f
}

// validatorKeywords is model.Config.ValidatorKeywords: the keywords the
// modelgen.yaml in dir declares (validatorKeywords). Load asks before the
// settings are read; the file's mistakes are loadConfigs' to report.
func (c *configFiles) validatorKeywords(dir string) []string {
	path := filepath.Join(dir, ConfigFile)
	f := c.read(path)
	if !f.ok {
		return nil
	}
	keys, err := c.keys()
	if err != nil {
		return nil
	}
	var cfg gen.Config
	readConfig(path, f.data, keys, &cfg)
	return keywordList(cfg.ValidatorKeywords)
}

func keywordList(value string) []string {
	var out []string
	for _, name := range strings.Split(value, ",") {
		if name = strings.TrimSpace(name); name != "" {
			out = append(out, name)
		}
	}
	return out
}

// validatorKeyword is a name validator's RegisterValidation takes and a tag
// can hold: no comma, '|', '=' or space.
var validatorKeyword = regexp.MustCompile(`^[^,|=\s]+$`)

// checkValidatorKeywords refuses, at the setting, a declared keyword that
// is validator's own (modelgen already knows what it checks) or that no
// tag can name.
func checkValidatorKeywords(cfg *gen.Config, set map[string]model.Pos) model.Diagnostics {
	var diags model.Diagnostics
	pos := set["validatorKeywords"]
	for _, name := range keywordList(cfg.ValidatorKeywords) {
		switch _, known := model.Lookup(name); {
		case !validatorKeyword.MatchString(name):
			diags.Errorf(pos, "setting \"validatorKeywords\": %q cannot be a validate keyword (no '|', '=' or space)", name)
		case known, model.Aliases[name] != "":
			diags.Errorf(pos, "setting \"validatorKeywords\": %q is validator's own keyword, which modelgen knows; declare only the keywords the application registers itself", name)
		}
	}
	return diags
}
