// Go-to-definition from the page to the export (issue 16): every call the
// page makes into the module is a typed method of recmem.js, reached by
// the TypeScript language service (what an editor's go-to-definition
// asks) from the call site in web/app, and that method names the export it
// calls, one of EXPORTS. The service resolves '../recmem.js' to
// recmem.d.ts, where an editor's go-to-definition lands (the method's
// declaration and doc); with the declarations hidden it lands on the
// method in recmem.js, where "go to source definition" goes. A method that
// Engine overrides (importState) lands on the override, whose
// super.importState goes on to recmem.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import ts from 'typescript';
import { EXPORTS } from 'recmem';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const appDir = path.join(web, 'app');
const pages = readdirSync(appDir).filter((f) => f.endsWith('.js')).map((f) => path.join(appDir, f));
const dts = path.join(web, 'recmem.d.ts');
const js = path.join(web, 'recmem.js');
const engine = path.join(appDir, 'engine.js');

// service is a language service over the page's modules, as an editor
// opens them (JavaScript, ES modules, no type checking needed).
function service({ hideDeclarations = false } = {}) {
  const exists = (f) => !(hideDeclarations && path.resolve(f) === dts) && existsSync(f);
  const options = { allowJs: true, checkJs: false, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] };
  const host = {
    getScriptFileNames: () => pages,
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => (exists(f) ? ts.ScriptSnapshot.fromString(readFileSync(f, 'utf8')) : undefined),
    getCurrentDirectory: () => web,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: exists,
    readFile: (f) => (exists(f) ? readFileSync(f, 'utf8') : undefined),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

// callSites lists every app.engine.<method>( in the page's modules, with
// the offset of the method's name.
function callSites() {
  const sites = [];
  for (const file of pages) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/app\.engine\.(\w+)\(/g)) {
      const line = text.slice(text.lastIndexOf('\n', m.index) + 1, m.index).trimStart();
      if (line.startsWith('//') || line.startsWith('*')) continue; // a comment
      sites.push({ file, method: m[1], pos: m.index + 'app.engine.'.length, line: text.slice(0, m.index).split('\n').length });
    }
  }
  return sites;
}

// The methods Engine adds for the page itself, not exports.
const ENGINE_OWN = new Set(['has', 'importsHost', 'unsaved', 'save', 'exportText', 'llmConfig']);
const methods = new Map(EXPORTS.map((x) => [x.method, x.name]));

test('the page calls no export by its name string', () => {
  for (const file of pages) {
    if (path.basename(file) === 'engine.js') continue;
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /\.call\(\s*['"`]/, `${path.basename(file)} calls an export by name: use recmem.js's typed method`);
  }
});

test('go-to-definition from each page call lands on the recmem.js method that names its export', () => {
  const sites = callSites().filter((s) => !ENGINE_OWN.has(s.method));
  // The page's own calls, one per export it uses (add_units twice, ...):
  // a page that stopped calling them would pass vacuously.
  assert.ok(sites.length >= 16, `only ${sites.length} typed calls found`);
  assert.deepEqual([...new Set(sites.map((s) => s.method))].sort(),
    ['addUnits', 'applyOps', 'deleteUnits', 'importState', 'loadCatalog', 'maintain', 'purge', 'rank', 'record', 'reset', 'selectSlate'].sort());
  const source = readFileSync(js, 'utf8');
  for (const [hide, target] of [[false, dts], [true, js]]) {
    const ls = service({ hideDeclarations: hide });
    for (const s of sites) {
      const where = `${path.basename(s.file)}:${s.line} ${s.method}`;
      let defs = ls.getDefinitionAtPosition(s.file, s.pos) ?? [];
      assert.ok(defs.length > 0, `${where}: no definition`);
      if (defs.length === 1 && path.resolve(defs[0].fileName) === engine) {
        // Engine overrides importState (to queue and save it): the override
        // calls super.importState, which goes on to recmem.js.
        const text = readFileSync(engine, 'utf8');
        const at = text.indexOf(`super.${s.method}(`, defs[0].textSpan.start);
        assert.ok(at > 0 && at < text.indexOf('\n  }', defs[0].textSpan.start), `${where}: Engine's ${s.method} does not call super.${s.method}`);
        defs = ls.getDefinitionAtPosition(engine, at + 'super.'.length) ?? [];
      }
      const def = defs.find((d) => path.resolve(d.fileName) === target);
      assert.ok(def, `${where}: lands on ${defs.map((d) => d.fileName).join(', ')}, not ${path.basename(target)}`);
      assert.equal(def.name, s.method, where);
      assert.ok(methods.has(s.method), `${where}: ${s.method} is not the method of an export`);
      if (target === js) {
        // The method's body names its export: this.call('rank', ...), or
        // the export's own code for importState (it seals the document).
        const body = source.slice(def.textSpan.start, source.indexOf('\n  }', def.textSpan.start) + 4);
        const name = methods.get(s.method);
        assert.ok(body.includes(`this.call('${name}'`) || body.includes(`'${name}'`), `${where}: recmem.js's ${s.method} does not name ${name}:\n${body}`);
      }
    }
  }
});
