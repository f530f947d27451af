// Package skills finds the skills followup's agent may use: folders in the
// Agent Skills format, built in or the user's and the project's
// (docs/skills.md).
package skills

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"followup/forms"

	"go.yaml.in/yaml/v4"
)

// Limits of docs/skills.md.
const (
	MaxFile        = 256 << 10 // SKILL.md, and a file skill_read returns
	MaxDescription = 1024
	maxListed      = 64 // files of one folder (references/, assets/, scripts/) listed
)

// BuiltIn is the source of the skills embedded in the binary.
const BuiltIn = "built-in"

// Asking is the built-in skill of how to ask the user well.
const Asking = "supplemental-information"

//go:embed all:builtin
var builtin embed.FS

// Skill is one skill folder whose SKILL.md was read and found good.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Source is the skills folder it was found in, or "built-in".
	Source string `json:"source"`
	// Path is its folder ("" when built in).
	Path string `json:"path,omitempty"`
	// Digest is the SHA-256 of its SKILL.md.
	Digest string `json:"digest"`
	// ShadowedBy is the source of a later skill of the same name, which is
	// the one used.
	ShadowedBy string `json:"shadowedBy,omitempty"`
	// Instructions are SKILL.md after its front matter.
	Instructions string `json:"-"`
	// Files lists its references/, assets/ and scripts/ (scripts are never run).
	Files []string `json:"files,omitempty"`
	// Forms are its form definitions by template name (SKILL:NAME).
	Forms map[string]forms.Definition `json:"-"`

	fsys fs.FS                              // the folder, for listing
	open func(name string) (fs.File, error) // the folder, confined
}

// Problem is a skill, or a file of one, that was refused.
type Problem struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

func (p Problem) String() string { return p.File + ": " + p.Reason }

// Set is every skill found, in the order of their sources.
type Set struct {
	All      []*Skill
	Problems []Problem
}

// Dirs are the folders searched after the built-in skills, earliest first.
func Dirs(home, xdgConfig, start string) []string {
	if xdgConfig == "" && home != "" {
		xdgConfig = filepath.Join(home, ".config")
	}
	var dirs []string
	if xdgConfig != "" {
		dirs = append(dirs, filepath.Join(xdgConfig, "followup", "skills"))
	}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".config", "agents", "skills"))
	}
	if start != "" {
		dirs = append(dirs, filepath.Join(start, ".agents", "skills"), filepath.Join(start, ".claude", "skills"))
	}
	return dirs
}

// UserDirs are Dirs for this process: its home, $XDG_CONFIG_HOME and the
// directory it was started in.
func UserDirs() []string {
	home, _ := os.UserHomeDir()
	start, _ := os.Getwd()
	return Dirs(home, os.Getenv("XDG_CONFIG_HOME"), start)
}

// Discover reads the built-in skills and then each folder of dirs; a later
// skill shadows an earlier one of the same name. A folder that does not
// exist holds no skills; a bad skill is a Problem and is skipped.
func Discover(dirs ...string) *Set {
	set := &Set{}
	sub, _ := fs.Sub(builtin, "builtin")
	entries, _ := fs.ReadDir(sub, ".")
	for _, e := range entries {
		dir, _ := fs.Sub(sub, e.Name())
		set.add(load(e.Name(), BuiltIn, "", dir, dir.Open))
	}
	for _, root := range dirs {
		entries, err := os.ReadDir(root)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				set.Problems = append(set.Problems, Problem{root, err.Error()})
			}
			continue
		}
		for _, e := range entries {
			dir := filepath.Join(root, e.Name())
			if st, err := os.Stat(dir); err != nil || !st.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue // a file beside the skills, a dangling link, a hidden folder (.git)
			}
			open := func(name string) (fs.File, error) { return os.OpenInRoot(dir, name) }
			set.add(load(e.Name(), root, dir, os.DirFS(dir), open))
		}
	}
	return set
}

func (set *Set) add(s *Skill, problems []Problem) {
	set.Problems = append(set.Problems, problems...)
	if s == nil {
		return
	}
	for _, old := range set.All {
		if old.Name == s.Name && old.ShadowedBy == "" {
			old.ShadowedBy = s.Source
		}
	}
	set.All = append(set.All, s)
}

// Active are the skills in use (not shadowed), sorted by name.
func (set *Set) Active() []*Skill {
	var out []*Skill
	for _, s := range set.All {
		if s.ShadowedBy == "" {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b *Skill) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Get finds the skill in use of that name.
func (set *Set) Get(name string) (*Skill, bool) {
	for _, s := range set.All {
		if s.Name == name && s.ShadowedBy == "" {
			return s, true
		}
	}
	return nil, false
}

// Templates are the forms of the skills in use, by template name.
func (set *Set) Templates() map[string]forms.Definition {
	out := map[string]forms.Definition{}
	for _, s := range set.Active() {
		for name, def := range s.Forms {
			out[name] = def
		}
	}
	return out
}

// validName is the Agent Skills rule for a name, less its hyphen rules.
func validName(s string) bool { return madeOf(s, 64, "abcdefghijklmnopqrstuvwxyz0123456789-") }

// validForm is what may follow "SKILL:" in a form's template name.
func validForm(s string) bool {
	return madeOf(s, 63, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
}

// madeOf reports whether s is 1 to max bytes, each one of allowed.
func madeOf(s string, max int, allowed string) bool {
	return len(s) >= 1 && len(s) <= max && strings.Trim(s, allowed) == ""
}

type frontMatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// load reads one skill folder; where names the SKILL.md in problems.
func load(folder, source, dir string, fsys fs.FS, open func(string) (fs.File, error)) (*Skill, []Problem) {
	where := path.Join(source, folder, "SKILL.md")
	if dir != "" {
		where = filepath.Join(dir, "SKILL.md")
	}
	bad := func(format string, a ...any) (*Skill, []Problem) {
		return nil, []Problem{{where, fmt.Sprintf(format, a...)}}
	}
	raw, err := readBounded(open, "SKILL.md")
	if err != nil {
		return bad("%s", strings.TrimPrefix(err.Error(), "SKILL.md: ")) // the line names it already
	}
	fm, body, ok := splitFrontMatter(raw)
	if !ok {
		return bad("no YAML front matter (a first line ---, then name: and description:, then ---)")
	}
	var meta frontMatter
	if err := yaml.Unmarshal(fm, &meta); err != nil {
		return bad("front matter is not YAML: %v", err)
	}
	switch {
	case meta.Name == "":
		return bad("the front matter has no name")
	case !validName(meta.Name) || strings.HasPrefix(meta.Name, "-") || strings.HasSuffix(meta.Name, "-") || strings.Contains(meta.Name, "--"):
		return bad("name %q: a name is 1–64 of a–z, 0–9 and -, with no hyphen first, last or doubled", meta.Name)
	case meta.Name != folder:
		return bad("name %q differs from its folder %q", meta.Name, folder)
	case strings.TrimSpace(meta.Description) == "":
		return bad("the front matter has no description")
	case utf8.RuneCountInString(meta.Description) > MaxDescription:
		return bad("the description is %d characters; the limit is %d", utf8.RuneCountInString(meta.Description), MaxDescription)
	}
	sum := sha256.Sum256(raw)
	s := &Skill{Name: meta.Name, Description: strings.TrimSpace(meta.Description), Source: source, Path: dir,
		Digest: hex.EncodeToString(sum[:]), Instructions: strings.TrimSpace(string(body)), fsys: fsys, open: open}
	for _, sub := range []string{"references", "assets", "scripts"} {
		s.Files = append(s.Files, listFiles(fsys, sub)...)
	}
	var problems []Problem
	s.Forms, problems = loadForms(s, where)
	return s, problems
}

// splitFrontMatter cuts "---\nYAML\n---\nbody".
func splitFrontMatter(raw []byte) (fm, body []byte, ok bool) {
	raw = bytes.TrimPrefix(raw, []byte("\ufeff"))
	raw = bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))
	rest, ok := bytes.CutPrefix(raw, []byte("---\n"))
	if !ok {
		return nil, nil, false
	}
	if bytes.HasPrefix(rest, []byte("---\n")) {
		return nil, rest[4:], true
	}
	fm, body, ok = bytes.Cut(rest, []byte("\n---\n"))
	if !ok && bytes.HasSuffix(rest, []byte("\n---")) {
		return rest[:len(rest)-4], nil, true
	}
	return fm, body, ok
}

// listFiles lists the regular files (and links) under sub, bounded.
func listFiles(fsys fs.FS, sub string) []string {
	var out []string
	fs.WalkDir(fsys, sub, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= maxListed {
			return fs.SkipDir
		}
		if !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// loadForms reads assets/forms/NAME.json, each a form definition checked
// as an input request's would be.
func loadForms(s *Skill, where string) (map[string]forms.Definition, []Problem) {
	out := map[string]forms.Definition{}
	var problems []Problem
	for _, p := range s.Files {
		dir, file := path.Split(p)
		name, isJSON := strings.CutSuffix(file, ".json")
		if dir != "assets/forms/" || !isJSON {
			continue
		}
		at := filepath.Join(filepath.Dir(where), filepath.FromSlash(p))
		if !validForm(name) {
			problems = append(problems, Problem{at, "a form's name is 1–63 of A–Z, a–z, 0–9 and . _ -"})
			continue
		}
		raw, err := readBounded(s.open, p)
		if err != nil {
			problems = append(problems, Problem{at, err.Error()})
			continue
		}
		if !json.Valid(raw) {
			problems = append(problems, Problem{at, "not JSON"})
			continue
		}
		decl := fmt.Sprintf(`{"requestKey":"template","source":{"kind":"dynamic","definition":%s}}`, raw)
		d, found := forms.ParseDeclaration([]byte(decl), nil)
		if len(found) > 0 {
			f := found[0]
			problems = append(problems, Problem{at, strings.TrimPrefix(f.Path, "/source/definition") + ": " + f.Message})
			continue
		}
		out[s.Name+":"+name] = d.Definition
	}
	return out, problems
}

// readBounded reads a file of the skill's folder, at most MaxFile bytes.
func readBounded(open func(string) (fs.File, error), name string) ([]byte, error) {
	f, err := open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file", name)
		}
		if strings.Contains(err.Error(), "escapes") { // os.OpenInRoot's error for a link out
			return nil, fmt.Errorf("%s: a link that leads out of the skill's folder", name)
		}
		return nil, fmt.Errorf("%s: cannot be read (%v)", name, unwrapPath(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a folder", name)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, unwrapPath(err))
	}
	if len(b) > MaxFile {
		return nil, fmt.Errorf("%s is larger than the limit of %d KiB", name, MaxFile>>10)
	}
	return b, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Read returns one file of the skill's folder (docs/skills.md): a relative
// path inside it, no "..", no link out of it, at most MaxFile bytes of text.
func (s *Skill) Read(name string) (string, error) {
	if !fs.ValidPath(name) || name == "." {
		return "", fmt.Errorf("%q is not a path inside the skill's folder (relative, with / and no ..)", name)
	}
	b, err := readBounded(s.open, name)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%s is not text", name)
	}
	return string(b), nil
}

// IsTemplate reports whether a template's name is a skill form's, SKILL:NAME.
func IsTemplate(name string) bool {
	skill, form, ok := strings.Cut(name, ":")
	return ok && validName(skill) && validForm(form)
}
