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
	"unicode"

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
	digitalRE = regexp.MustCompile(`(?i)digital code|\[download\]|\bdownload\b|online game code|\[online|\bdlc\b|season pass`)
	// seriesCut ends a series name: a subtitle, a platform suffix or a number.
	seriesCut = regexp.MustCompile(`\s*(:| - | \(|\s+\d+\b|\s+(II|III|IV|V|VI|VII|VIII|IX|X)\b).*$`)
)

// The kind rules (kindOf) read a title's name: the title without its last
// " - " suffix (often the platform), its bracketed notes and, when it reads
// "<head> with <rest>" or "<head> + <rest>", the rest (what comes in the
// box: "Wii Fit Plus with Balance Board" is the game, "Kinect Sensor with
// Kinect Adventures!" the sensor; "compatible with" is not such a split).
var (
	// makerRE: a title that starts with an accessory maker's name.
	makerRE = regexp.MustCompile(`(?i)^(\[\d+ pack\] )?(nyko|pdp|hori|mad ?catz|turtle beach|logitech|razer|power ?a|afterglow|intec|dreamgear|hyperkin|datel|steelseries|corsair|sentey|cta digital|energizer|saitek|thrustmaster|astro( gaming)?|plantronics|tritton|mayflash|kontrolfreek|insten|zettaguard|havit|gunnar|antec|perixx|sades|yuyikes|jinhezo|cm storm|rock candy|oculus|nvidia|sanwa|trackir|retro[- ]?bit|foamy lizard|security bit|airdrop gaming|beastron|matney|slickblue|illumishield|amazonbasics|generic|kootek|redragon|smatree|takecase|technoskin|tomsenn|ch products|gen|extremerate|cyber|thermaltake|everydaysource)\b`)
	// consoleRE: a name that starts with a console or handheld (after its
	// maker's name); the group is the platform as written.
	consoleRE = regexp.MustCompile(`(?i)^(?:(?:sony|microsoft|nintendo|sega)(?: computer entertainment)?\s*-?\s*)?((?:new )?(?:nintendo )?(?:3ds|2ds|dsi|ds)(?: ?xl| ?ll| lite)?|playstation(?: ?[234]| vita| portable| tv| vr)?|ps ?(?:[234]|vita)|pspgo|psp(?: ?go| ?\d{4})?|xbox(?: 360| one)?(?: [se]\b)?|wii(?: u)?|gamecube|game ?boy(?: advance(?: sp)?| color| micro| pocket)?|gba(?: sp)?|nintendo 64|n64|super nes|snes|super nintendo|nes|genesis|saturn|dreamcast|switch)\b`)
	// handheldModelRE: a handheld's model names the hardware whatever follows
	// ("Nintendo 3DS XL New Super Mario Bros 2 Limited Edition").
	handheldModelRE = regexp.MustCompile(`(?i)\b(xl|ll|lite|sp|go|\d{4})$`)
	// consoleWordsRE: after a console's name, these make the item hardware
	// ("PS3 500 GB The Last of Us Bundle", "Wii Hardware Bundle").
	consoleWordsRE = regexp.MustCompile(`(?i)\b(bundle|console|system|hardware|control deck|deluxe set|basic set|value pack|core pack|entertainment pack|\d+ ?(gb|tb))\b`)
	// modelWords: what may follow a console's name in a title that names the
	// console alone ("Nintendo DS Lite Onyx Black", "PlayStation Vita WiFi").
	modelWords = map[string]bool{}
	// bundleSuffixRE: a last suffix that names a console bundle
	// ("Borderlands 2 - Limited Edition - PlayStation Vita Bundle").
	bundleSuffixRE = regexp.MustCompile(`(?i)^(playstation|ps|xbox|wii|nintendo|3ds|2ds|psp)\b.*\bbundle$`)
	// gameRE: game words that would otherwise read as hardware or toys.
	gameRE = regexp.MustCompile(`(?i)\bamiibo\b.*\bbundle\b|\bcase (files|of)\b`)
	// holderRE: a case or folio for something else is hardware, even for
	// toys ("Skylanders Adventure Case").
	holderRE = regexp.MustCompile(`(?i)\b(case|cases|folio|holder)\b`)
	// collectibleRE: figures, cards and other merchandise; toys-to-life
	// figures and packs, but their starter packs are the game.
	collectibleRE = regexp.MustCompile(`(?i)\b(amiibo|figures?|figurine|trading cards?|pack of \d+ cards|plush|necklace|game guide|strategy guide|play ?set)\b`)
	toysRE        = regexp.MustCompile(`(?i)\b(skylanders?|disney infini?ty|lego dimensions)\b`)
	toysGameRE    = regexp.MustCompile(`(?i)\b(starter (pack|set)|video game|bundle|complete)\b`)
	// accessoryRE: hardware and services: input devices, audio, power,
	// storage, protection, video, subscriptions and points.
	accessoryRE = regexp.MustCompile(`(?i)\b(controllers?|gamepad|game pad|fight pad|battle pad|rumblepad|joystick|flight (stick|control)|fighting stick|arcade stick|fight ?stick|thumbsticks?|analog stick|triggers|case|cases|cable|cables|connector|charger|charging|charge (kit|station|base)|play (and|&) charge|headsets?|head set|headphones?|communicator|chatpad|keypad|microphone|adapters?|adaptor|receiver|battery|batteries|power (cord|kit|supply|stand)|stand|playstand|cooling|cooler|intercooler|skins?|armor|folio|protective film|screen (protector|filter)|filter|protector|faceplate|cover|sleeve|bag|pouch|strap|grips?|mount|trimount|stylus|memory card|memory unit|hard (disk )?drive|dvd drive|storage|rumble pak|expansion pak|keyboard|gaming mouse|mouse|mouse pad|racing wheel|steering wheel|speed wheel|wii wheel|pedals?|remote|motion ?plus|balance board|nunchuk|sensor|sensor bar|(playstation( \d)?|ps\d|eye|vision|hd) camera|playstation eye|for kinect|dock|hdmi|hd-link|net connect|network adaptor|card reader|reader/writer|go plus|action replay|game boy player|super game boy|playgear|uboost|meter|fitness belt|plate|eyewear|display|media player|head tracking|cleaning kit|messenger kit|playback kit|owner'?s kit|starter kit|essentials pack|sports pack|console|system|hard drive|subscription|membership)\b`)
	// serviceRE: points, time and subscription cards, read in the whole title
	// ("Star Wars: The Old Republic - 2400 Cartel Coins").
	serviceRE = regexp.MustCompile(`(?i)\b(gift card|points card|\d+ points|gold card|time card|game time|cartel coins|\d+ month gold)\b`)
)

func init() {
	for _, w := range strings.Fields("xl ll lite slim pro elite core e s new wifi wi fi 3g portable sp advance color " +
		"black white red blue pink silver gold platinum purple green yellow orange grey gray onyx polar jet piano " +
		"midnight metallic rose pearl atomic flame electric cobalt glacier ice matte crimson aqua cosmo teal " +
		"limited special first edition launch old model discontinued refurbished certified japanese version") {
		modelWords[w] = true
	}
}

// kindName is the part of a title the kind rules read (see above), in
// lower case.
func kindName(title string) string {
	name := title
	if i := strings.LastIndex(title, " - "); i > 0 {
		name = title[:i]
	}
	name = bracketRE.ReplaceAllString(name, " ")
	for _, sep := range []string{" with ", " + "} {
		low := strings.ToLower(name)
		if i := strings.Index(low, sep); i > 0 && !strings.HasSuffix(low[:i], "compatible") {
			name = name[:i]
		}
	}
	return strings.Join(strings.Fields(name), " ")
}

var bracketRE = regexp.MustCompile(`\([^)]*\)?|\[[^\]]*\]?`)

// isConsole says whether name names a console or handheld: the console's
// name alone or with model and colour words, a handheld's model, or the
// console with a bundle, a storage size or the word console or system.
func isConsole(name string) bool {
	m := consoleRE.FindStringSubmatchIndex(name)
	if m == nil {
		return false
	}
	if handheldModelRE.MatchString(name[m[2]:m[3]]) {
		return true
	}
	rest := name[m[1]:]
	if consoleWordsRE.MatchString(rest) {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(rest), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !modelWords[w] && strings.Trim(w, "0123456789") != "" {
			return false
		}
	}
	return true
}

// kindOf says what an item is from its title alone: "accessory" for
// hardware and services (consoles and handhelds alone or in bundles,
// controllers, memory, cables, chargers, stands, headsets, cameras, cases,
// points and time cards), "collectible" for figures, toys-to-life packs,
// cards and merchandise, else "game" (a game, its expansions and editions,
// and a game sold with what it needs: "Wii Fit Plus with Balance Board", a
// toys-to-life starter pack). The rules, in order: an accessory maker's name
// first; a console's name; game words; collectibles; hardware words. Their
// precision and recall on hand-labelled titles: testdata/web/kind-labels.tsv
// and TestKindLabels.
func kindOf(title string) string {
	name := kindName(title)
	suffix := ""
	if i := strings.LastIndex(title, " - "); i > 0 {
		suffix = title[i+3:]
	}
	switch {
	case makerRE.MatchString(title):
		if collectibleRE.MatchString(name) && !holderRE.MatchString(name) {
			return "collectible"
		}
		return "accessory"
	case isConsole(name) || bundleSuffixRE.MatchString(suffix):
		return "accessory"
	case gameRE.MatchString(name):
		return "game"
	case !holderRE.MatchString(name) && (collectibleRE.MatchString(name) || toysRE.MatchString(name) && !toysGameRE.MatchString(title)):
		return "collectible"
	case accessoryRE.MatchString(name) || serviceRE.MatchString(title):
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
