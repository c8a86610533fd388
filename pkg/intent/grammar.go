package intent

import (
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// The grammar of cues: English words that open, close or change the scope of
// what follows. They are language, not domain: every catalog shares them
// (the domain's own words are in Table).

// cueKind is what a cue does to the words after it.
type cueKind int

const (
	cueNone    cueKind = iota
	cueExclude         // hard: the items named after it are removed
	cueAvoid           // soft: the items named after it go after the others
	cueOnly            // hard: only the items named after it (or, at the end of a clause, before it) are kept
	cuePrefer          // soft, positive: a hedged request ("preferably", "something like")
	cueReset           // ends the current scope ("but", "though")
	cueJoin            // continues a list ("and", "or", "nor")
)

// cueList is every cue phrase with its kind; longer phrases are tried first.
var cueList = []struct {
	kind    cueKind
	phrases string
}{
	{cueOnly, "only|just|exclusively|solely|purely|strictly|nothing but|nothing except|none but|nothing other than|only ever|and nothing else|nothing else|and that is it|that is all|and nothing more" +
		// French, Spanish, German
		"|seulement|uniquement|exclusivement|rien que|que des|ne que|solo|solamente|unicamente|exclusivamente|nada mas que|nur|ausschliesslich|lediglich|bloss"},
	{cueExclude, "no|not|neither|without|except|enough|had enough of|enough of|except for|excepting|anything but|anything except|everything but|everything except|other than|anything other than|avoid|skip|tired of|sick of|bored of|bored with|fed up with|done with|no more|not any|do not want|never|besides|excluding|exclude|none of|nothing from|nothing with|nothing on|nothing by|nothing|rather than|instead of|hate|dislike|minus|leave out|steer clear of|stay away from|ban|block|hide|keep away from|spare me|not into|no thanks to" +
		"|rien|rien de|pas|pas de|pas d|sans|aucun|aucune|sauf|excepte|hormis|a part|jamais|ni|evite|eviter|pas question de" +
		"|sin|nada de|ningun|ninguna|ninguno|excepto|salvo|menos|nunca|evita|evitar|odio" +
		"|kein|keine|keinen|keiner|keines|ohne|nicht|ausser|niemals|nie|bitte keine|vermeide"},
	{cueAvoid, "less|fewer|not too much|not too many|not so much|not so many|rather not|would rather not|preferably not|preferably no|ideally not|ideally no|if possible no|if possible not|go easy on|cut down on|cut back on|fewer of|less of" +
		"|peu de|moins|pocos|pocas|weniger"},
	{cuePrefer, "prefer|preferably|ideally|more|more of|lots of|into|fan of|big fan of|favor|favour|especially|mostly|mainly|like|similar to|something like|kind of like|maybe|perhaps|possibly|if possible|some more|a few" +
		"|plutot|de preference|surtout|j aime|comme|preferiblemente|sobre todo|me gusta|me gustan|como|lieber|am liebsten|vorzugsweise|besonders|wie"},
	{cueReset, "but|though|although|however|yet|whereas|while|apart from that|otherwise|would like|would love|want|looking for|not sure|not really sure|no idea|whatever" +
		"|mais|cependant|pourtant|par contre|pero|sin embargo|aber|jedoch|sondern"},
	{cueJoin, "and|or|nor|and also|or any|plus|et|ou|y|o|und|oder|noch|sowie"},
}

// stopwords are words that carry no constraint in a request, whatever the
// domain: pronouns, articles, verbs of wanting and playing, politeness.
var stopwordList = `a an the of for to on in at with by from about me my mine i we us our you your it its this that these those
	is are am be been was were do does did have has had having get got give show find recommend recommendation recommendations suggest
	wanted wanna would could should can will shall may might must need needs likes love loves enjoy really very so too also
	some any something anything stuff thing things one ones other others please thanks thank kindly pls plz ok okay hey hi hello
	play playing played plays own owning buy buying bought looking look lookin search searching got kind sort type
	what which who that there here now right today tonight new again all every each lot lots bit little much many most
	up out over into as if then than just well still ever eh um uh oh yes yeah interested anymore else either
	le la les l un une des du de d au aux pour par avec en sur dans ce cette ces mon ma mes ton ta tes son sa ses notre nos
	votre vos leur leurs je j tu il elle on nous vous ils elles moi toi se ne n qui que qu quoi est sont suis etre avoir ai
	veux voudrais cherche recommande recommander donne donner montre montrer bien tres tout tous quelque quelques chose choses
	plait svp merci bonjour aimerais adore
	el los las uno unos unas del al con por para mi mis tus su sus yo me te lo quiero quisiera busco algo alguna algunas
	alguno algunos favor gracias hola recomienda recomiendame muestrame dame muy
	der die das den dem des ein eine einen einem einer mit fur von zu im auf bei ich mir mich du dir wir uns ihr sie es ist
	sind bin mochte suche bitte danke hallo etwas sehr zeig zeige empfiehl gib aus
	released release made came come out gift gifts present presents birthday christmas xmas stocking stuffer`

// englishWords are words of foreignList that English uses too: they keep
// the English rule.
var englishWords = map[string]bool{"no": true, "me": true, "die": false, "a": true, "on": true, "ma": false, "son": true,
	"am": true, "i": true, "des": false, "con": false, "sin": false, "e": true, "o": true, "u": true, "y": true, "et": true}

// vagueList are words that describe taste without naming anything a catalog
// holds ("fun", "relaxing"): never linked to a title word by chance, always
// reported as not understood and used only as a soft word-vector signal.
var vagueList = `fun good great best cool nice awesome amazing favorite favourite popular classic classics recent latest old older newer cheap
	easy hard difficult relaxing chill casual cozy cute scary dark light short long quick big small kid kids family friendly adult
	mature violent calm exciting interesting similar different same top random anything everything nothing stuff`

// foreignList are the words of the French, Spanish and German cues and stop
// words: a title phrase of two words that starts with one ("Die Hard", "Sin
// City", "La Noire", "Con Air") wins over it, as a name of three words wins
// over an English cue.
var foreignList = `seulement uniquement exclusivement rien que des ne solo solamente unicamente exclusivamente nada mas nur
	ausschliesslich lediglich bloss pas sans aucun aucune sauf excepte hormis part jamais ni evite eviter question sin ningun
	ninguna ninguno excepto salvo menos nunca evita evitar odio kein keine keinen keiner keines ohne nicht ausser niemals nie
	bitte vermeide peu moins pocos pocas weniger plutot preference surtout aime comme preferiblemente sobre todo me gusta
	gustan como lieber am liebsten vorzugsweise besonders wie mais cependant pourtant par contre pero embargo aber jedoch
	sondern et ou y o e u und oder noch sowie
	le la les l un une du de d au aux pour avec en sur dans ce cette ces mon ma mes ton ta tes son sa ses notre nos votre vos
	leur leurs je j tu il elle on nous vous ils elles moi toi se n qui qu quoi est sont suis etre avoir ai veux voudrais cherche
	recommande recommander donne donner montre montrer bien tres tout tous quelque quelques chose choses plait svp merci bonjour
	aimerais adore el los las uno unos unas del al con por para mi mis tus su sus yo te lo quiero quisiera busco algo alguna
	algunas alguno algunos favor gracias hola recomienda recomiendame muestrame dame muy der die das den dem des ein eine einen
	einem einer mit fur von zu im auf bei ich mir mich du dir wir uns ihr sie es ist sind bin mochte suche danke hallo etwas
	sehr zeig zeige empfiehl gib aus`

var (
	foreign = map[string]bool{}
	// cueWords are the words of every cue and number phrase: never typos.
	cueWords  = map[string]bool{}
	cues      = map[string]cueKind{}
	maxCue    int
	stopwords = map[string]bool{}
	vague     = map[string]bool{}
)

func init() {
	normalizeNumberWords()
	normalizeRelativeWords()
	for _, c := range cueList {
		for _, p := range strings.Split(c.phrases, "|") {
			k := text.Key(p)
			cues[k] = c.kind
			maxCue = max(maxCue, len(strings.Fields(k)))
			for _, w := range strings.Fields(k) {
				cueWords[w] = true
			}
		}
	}
	for _, w := range strings.Fields(stopwordList) {
		stopwords[text.Norm(w)] = true
	}
	for _, w := range strings.Fields(vagueList) {
		vague[text.Norm(w)] = true
	}
	for _, w := range strings.Fields(foreignList) {
		if !englishWords[w] {
			foreign[text.Norm(w)] = true
		}
	}
	for _, m := range []map[string]comparator{comparators, postfixes} {
		for k := range m {
			for _, w := range strings.Fields(k) {
				cueWords[w] = true
			}
		}
	}
	for _, m := range []map[string]string{unitAfter, unitBefore} {
		for k := range m {
			cueWords[k] = true
		}
	}
	for _, m := range []map[string]bool{decadeLead, decadeTail, childWords, rangeOpen, rangeJoin, teenWords} {
		for k := range m {
			cueWords[k] = true
		}
	}
	for _, m := range []map[string]float64{decadeWords, numberWords, germanNumbers} {
		for k := range m {
			cueWords[k] = true
		}
	}
}
