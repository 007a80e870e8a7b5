package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/fsread"
	"github.com/modelgen/modelgen/internal/writer"
	"github.com/modelgen/modelgen/model"
)

// diffLines bounds the diff --check prints for each stale file.
const diffLines = 60

// maxHeaderBytes bounds a header file: a licence is a few hundred bytes.
const maxHeaderBytes = 64 << 10

// headerTexts reads the header of each package's generated Go files: the
// --header-file flag (relative to the working directory), else the header
// file modelgen.yaml names (relative to the package), else none (the
// writer then keeps the header the file on disk has).
func headerTexts(m *model.Model, configs map[string]gen.Config, fl generateFlags) (map[string]string, error) {
	out := map[string]string{}
	for _, pk := range m.Packages {
		path := fl.headerFile
		if path != "" && fl.dir != "" && !filepath.IsAbs(path) {
			path = filepath.Join(fl.dir, path)
		}
		if path == "" && configs[pk.Path].Header != "" {
			path = filepath.Join(pk.Dir, configs[pk.Path].Header)
		}
		if path == "" {
			continue
		}
		data, err := fsread.File(path, maxHeaderBytes)
		if err != nil {
			return nil, fmt.Errorf("reading the header of %s: %w", pk.Path, err)
		}
		if ps := writer.HeaderProblems(string(data)); len(ps) > 0 {
			return nil, fmt.Errorf("%s:%d:%d: %s", path, ps[0].Line, ps[0].Col, ps[0].Msg)
		}
		out[pk.Path] = string(data)
	}
	return out, nil
}

// startProfiles starts the CPU profile and returns the function that stops
// it and writes the heap profile.
func startProfiles(cpu, mem string) (func(), error) {
	var cpuFile *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
		cpuFile = f
	}
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			cpuFile.Close()
		}
		if mem != "" {
			if f, err := os.Create(mem); err == nil {
				runtime.GC()
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
	}, nil
}
