package gate

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Output formats accepted by Write.
const (
	FormatText          = "text"
	FormatJSON          = "json"
	FormatGitHubActions = "githubactions"
)

// Formats lists the output formats, for flag help and validation.
var Formats = []string{FormatText, FormatJSON, FormatGitHubActions}

// Write prints the report in one of Formats.
func Write(w io.Writer, r *Report, format string) error {
	switch format {
	case FormatText:
		return writeText(w, r)
	case FormatJSON:
		return writeJSON(w, r)
	case FormatGitHubActions:
		return writeGitHubActions(w, r)
	}
	return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

func writeJSON(w io.Writer, r *Report) error {
	if r.Changes == nil {
		r.Changes = []Change{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// writeText prints one line per change (level, rule id, where, what), then
// the verdict: which bump is needed, which was made, and what to do.
func writeText(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "base %s (info.version %s) → revision %s (info.version %s)\n",
		r.Base.Source, r.Base.Version, r.Revision.Source, r.Revision.Version)
	if len(r.Changes) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, c := range r.Changes {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Level, c.ID, c.Where, c.Message)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, line := range verdictLines(r) {
		fmt.Fprintln(w, line)
	}
	return nil
}

func verdictLines(r *Report) []string {
	v := r.Verdict
	lines := []string{summary(r)}
	if v.Module != nil {
		lines = append(lines, fmt.Sprintf("go module: %s declares %s; info.version %s needs %s", v.Module.File, v.Module.Path, r.Revision.Version, v.Module.Want))
	}
	for _, violation := range v.Violations {
		lines = append(lines, fmt.Sprintf("FAIL %s: %s", violation.ID, violation.Message), "  fix: "+violation.Fix)
	}
	if v.Pass {
		return append(lines, "PASS")
	}
	return append(lines, fmt.Sprintf("FAIL (%d violation%s)", len(v.Violations), pluralS(len(v.Violations))))
}

func summary(r *Report) string {
	v := r.Verdict
	needed := "no contract changes: no bump needed"
	if v.Breaking+v.Additive > 0 {
		needed = fmt.Sprintf("%d breaking, %d additive: needed %s (%s or later)",
			v.Breaking, v.Additive, describeBump(v.Needed), v.Suggested)
	}
	made := describeBump(v.Made)
	if slices.ContainsFunc(v.Violations, func(x Violation) bool { return x.ID == RuleVersionDecreased }) {
		made = "went backwards"
	}
	return fmt.Sprintf("%s; made: %s (%s → %s)", needed, made, r.Base.Version, r.Revision.Version)
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// githubSeverity maps levels onto GitHub Actions workflow commands.
var githubSeverity = map[Level]string{LevelError: "error", LevelWarning: "warning", LevelInfo: "notice"}

// writeGitHubActions prints workflow-command annotations: one per change and
// one per violation, then the summary as a notice.
func writeGitHubActions(w io.Writer, r *Report) error {
	for _, c := range r.Changes {
		fmt.Fprintf(w, "::%s title=%s::%s\n", githubSeverity[c.Level], escapeProperty(c.ID), escapeData(c.Where+": "+c.Message))
	}
	for _, violation := range r.Verdict.Violations {
		fmt.Fprintf(w, "::error title=%s::%s\n", escapeProperty(violation.ID), escapeData(violation.Message+". Fix: "+violation.Fix))
	}
	lines := verdictLines(r)
	fmt.Fprintf(w, "::notice title=modelgen gate::%s\n", escapeData(lines[0]+"\n"+lines[len(lines)-1]))
	return nil
}

// escapeData escapes an annotation message per GitHub's workflow-command
// rules (the same as oasdiff's formatter); % first, so its own escapes
// survive.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty also escapes the property delimiters ':' and ','.
func escapeProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(escapeData(s))
}
