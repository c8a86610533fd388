package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/recmem/recmem/pkg/dataset"
)

func init() {
	commands["demo-catalog"] = command{
		summary: "derive the web page's demo catalog from Amazon Games-6k: recmem demo-catalog [--n 3000] [--out FILE]",
		run:     runDemoCatalog,
	}
}

// DemoItem is one item of the web page's demo catalog. Platform, kind, format
// and series are derived from the title alone; popularity is the number of
// users of Games-6k.test.inter whose history or target holds the item.
type DemoItem struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Platform string `json:"platform,omitempty"`
	Kind     string `json:"kind"`
	Format   string `json:"format"`
	Series   string `json:"series,omitempty"`
	// Genre and Audience are inferred from titles (democatalog_genre.go).
	Genre      []string `json:"genre,omitempty"`
	Audience   []string `json:"audience,omitempty"`
	Popularity int      `json:"popularity"`
}

// DemoCatalog is the file web/catalog/games-demo.json.
type DemoCatalog struct {
	Source  string     `json:"source"`
	License string     `json:"license"`
	Derived string     `json:"derived"`
	Items   []DemoItem `json:"items"`
}

func runDemoCatalog(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo-catalog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "the Games-6k `DIR` (default: shared/data/games-6k in the working directory or a parent)")
	n := fs.Int("n", 3000, "keep the `N` most popular items")
	out := fs.String("out", "", "write to `FILE` instead of stdout (web/catalog/games-demo.json is the committed one)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" {
		d, err := findGames6k()
		if err != nil {
			fmt.Fprintln(stderr, "recmem demo-catalog:", err)
			return 1
		}
		*data = d
	}
	ds, err := dataset.LoadRecBole(*data, "Games-6k")
	if err != nil {
		fmt.Fprintln(stderr, "recmem demo-catalog:", err)
		return 1
	}
	b, err := encodeDemoCatalog(buildDemoCatalog(ds, *n))
	if err != nil {
		fmt.Fprintln(stderr, "recmem demo-catalog:", err)
		return 1
	}
	if *out == "" {
		stdout.Write(b)
		return 0
	}
	if err := writeFileAtomic(*out, b); err != nil {
		fmt.Fprintln(stderr, "recmem demo-catalog:", err)
		return 1
	}
	fmt.Fprintf(stderr, "recmem demo-catalog: %d bytes to %s\n", len(b), *out)
	return 0
}

// buildDemoCatalog keeps the n most popular titled items (ties broken by id
// order in the data set) and derives their metadata. Deterministic.
func buildDemoCatalog(ds *dataset.RecBole, n int) DemoCatalog {
	pop := make([]int, len(ds.Items))
	seen := make(map[int]bool)
	for _, s := range ds.Test {
		clear(seen)
		for _, it := range append(s.History, s.Target) {
			if !seen[it] {
				seen[it] = true
				pop[it]++
			}
		}
	}
	titles := make([]string, len(ds.Items))
	for i, it := range ds.Items {
		titles[i] = strings.Join(strings.Fields(html.UnescapeString(it.Meta["title"])), " ")
	}
	series := seriesCounts(titles)
	order := make([]int, 0, len(ds.Items))
	for i := range ds.Items {
		if titles[i] != "" {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return pop[order[a]] > pop[order[b]] })
	if n > 0 && len(order) > n {
		order = order[:n]
	}
	sort.Ints(order)
	c := DemoCatalog{
		Source:  "Amazon Games-6k (RUCAIBox/LLMRank, MIT; from Amazon Review Data 2018, Video Games)",
		License: "MIT",
		Derived: fmt.Sprintf("recmem demo-catalog --n %d: the most popular items; platform, kind, format and series from the title; popularity = users of Games-6k.test.inter with the item", n),
	}
	for _, i := range order {
		t := titles[i]
		it := DemoItem{ID: ds.Items[i].ID, Title: t, Platform: platformOf(t), Kind: kindOf(t), Format: formatOf(t), Popularity: pop[i]}
		if s := seriesKey(t); s != "" && series[strings.ToLower(s)] >= 2 {
			it.Series = s
		}
		c.Items = append(c.Items, it)
	}
	inferFacets(ds, titles, order, &c)
	return c
}

// encodeDemoCatalog writes one item per line, so a regenerated file diffs well.
func encodeDemoCatalog(c DemoCatalog) ([]byte, error) {
	var buf bytes.Buffer
	head, err := json.Marshal(struct {
		Source  string `json:"source"`
		License string `json:"license"`
		Derived string `json:"derived"`
	}{c.Source, c.License, c.Derived})
	if err != nil {
		return nil, err
	}
	buf.Write(head[:len(head)-1])
	buf.WriteString(",\"items\":[\n")
	for i, it := range c.Items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
		if i < len(c.Items)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("]}\n")
	return buf.Bytes(), nil
}

// platforms maps title patterns to a platform name; the first match in the
// title's last " - " suffix wins, else the first match anywhere in the title.
// Longer names come before their prefixes (Wii U before Wii).
var platforms = []struct {
	re   *regexp.Regexp
	name string
}{
	// A bare "Switch" names the console only after "for", "and" or a comma
	// ("for Wii U, PC USB and Switch"); keyboards have "Red Switch", mice a
	// "DPI Switch".
	{regexp.MustCompile(`(?i)\bnintendo switch\b|\b(for|and|,) switch\b|^switch\b`), "Nintendo Switch"},
	{regexp.MustCompile(`(?i)\bwii u\b`), "Nintendo Wii U"},
	{regexp.MustCompile(`(?i)\bwii\b`), "Nintendo Wii"},
	{regexp.MustCompile(`(?i)\b(nintendo )?3ds\b`), "Nintendo 3DS"},
	{regexp.MustCompile(`(?i)\bnintendo ds\b|\bnds\b|\bds lite\b|\bdsi\b`), "Nintendo DS"},
	{regexp.MustCompile(`(?i)\bgame ?boy advance\b|\bgba\b`), "Game Boy Advance"},
	{regexp.MustCompile(`(?i)\bgame ?boy\b`), "Game Boy"},
	{regexp.MustCompile(`(?i)\bgame ?cube\b`), "GameCube"},
	{regexp.MustCompile(`(?i)\bnintendo 64\b|\bn64\b`), "Nintendo 64"},
	{regexp.MustCompile(`(?i)\bsuper nes\b|\bsnes\b|\bsuper nintendo\b`), "Super NES"},
	{regexp.MustCompile(`(?i)\bnes\b|\bnintendo nes\b`), "NES"},
	{regexp.MustCompile(`(?i)\bplaystation ?4\b|\bps4\b`), "PlayStation 4"},
	{regexp.MustCompile(`(?i)\bplaystation ?3\b|\bps3\b`), "PlayStation 3"},
	{regexp.MustCompile(`(?i)\bplaystation ?2\b|\bps2\b`), "PlayStation 2"},
	{regexp.MustCompile(`(?i)\bplaystation vita\b|\bps ?vita\b`), "PlayStation Vita"},
	{regexp.MustCompile(`(?i)\bpsp\b`), "PSP"},
	{regexp.MustCompile(`(?i)\bplaystation\b|\bps1\b|\bpsx\b`), "PlayStation"},
	{regexp.MustCompile(`(?i)\bxbox one\b`), "Xbox One"},
	{regexp.MustCompile(`(?i)\bxbox 360\b`), "Xbox 360"},
	{regexp.MustCompile(`(?i)\bxbox\b`), "Xbox"},
	{regexp.MustCompile(`(?i)\bdreamcast\b`), "Sega Dreamcast"},
	{regexp.MustCompile(`(?i)\bsaturn\b`), "Sega Saturn"},
	{regexp.MustCompile(`(?i)\bgenesis\b|\bmega drive\b`), "Sega Genesis"},
	{regexp.MustCompile(`(?i)\bpc/mac\b|\bmac/pc\b|\bpc\b|\bwindows\b|\bsteam\b`), "PC"},
	{regexp.MustCompile(`(?i)\bmac\b`), "Mac"},
}

func platformOf(title string) string {
	if i := strings.LastIndex(title, " - "); i >= 0 {
		if p := matchPlatform(title[i+3:]); p != "" {
			return p
		}
	}
	return matchPlatform(title)
}

func matchPlatform(s string) string {
	for _, p := range platforms {
		if p.re.MatchString(s) {
			return p.name
		}
	}
	return ""
}

var (
	accessoryRE   = regexp.MustCompile(`(?i)\b(controllers?|gamepad|joystick|case|cases|cable|cables|charger|charging|headsets?|headphones?|adapters?|battery|batteries|charging stand|skins?|memory card|stylus|grips?|mount|protector|sleeve|bag|pouch|keyboard|gaming mouse|mouse pad|wireless mouse|racing wheel|steering wheel|remote|dock|faceplate|pedals?|microphone|arcade stick|fight ?stick|storage|hdmi|power supply|sensor|nunchuk|card reader|cooling|strap|console|hard drive|gift card|points card|subscription|membership)\b`)
	collectibleRE = regexp.MustCompile(`(?i)\b(amiibo|figures?|figurine|skylanders? (character|figure)|trading cards?|plush)\b`)
	digitalRE     = regexp.MustCompile(`(?i)digital code|\[download\]|\bdownload\b|online game code|\[online|\bdlc\b|season pass`)
	// seriesCut ends a series name: a subtitle, a platform suffix or a number.
	seriesCut = regexp.MustCompile(`\s*(:| - | \(|\s+\d+\b|\s+(II|III|IV|V|VI|VII|VIII|IX|X)\b).*$`)
)

// kindOf says "collectible" for figures and cards, "accessory" for hardware
// and add-ons, else "game".
func kindOf(title string) string {
	name := title
	if i := strings.LastIndex(title, " - "); i > 0 {
		name = title[:i]
	}
	if collectibleRE.MatchString(name) {
		return "collectible"
	}
	if accessoryRE.MatchString(name) {
		return "accessory"
	}
	return "game"
}

// formatOf says "digital" for download codes, else "physical".
func formatOf(title string) string {
	if digitalRE.MatchString(title) {
		return "digital"
	}
	return "physical"
}

// seriesKey is the title cut at its subtitle, platform suffix or sequel
// number: "Halo 4 - Xbox 360" and "Halo: Reach" both give "Halo". Titles whose
// key is the whole title or a platform name give "".
func seriesKey(title string) string {
	k := strings.TrimSpace(seriesCut.ReplaceAllString(title, ""))
	if k == "" || k == title || len(k) < 3 || matchPlatform(k) != "" || len(strings.Fields(k)) > 5 {
		return ""
	}
	return k
}

// seriesCounts counts titles per lower-cased series key.
func seriesCounts(titles []string) map[string]int {
	m := map[string]int{}
	for _, t := range titles {
		if k := seriesKey(t); k != "" {
			m[strings.ToLower(k)]++
		}
	}
	return m
}

// findGames6k looks for shared/data/games-6k (or data/games-6k) in the
// working directory and its parents, and beside them (../shared).
func findGames6k() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		for _, rel := range []string{"shared/data/games-6k", "data/games-6k"} {
			p := filepath.Join(dir, rel)
			if _, err := os.Stat(filepath.Join(p, "Games-6k.item")); err == nil {
				return p, nil
			}
		}
		if filepath.Dir(dir) == dir {
			return "", errors.New("Games-6k not found (use --data DIR)")
		}
	}
}
