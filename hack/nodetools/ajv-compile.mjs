// ajv-compile.mjs FILE.json...: compiles every component schema of each
// OpenAPI document (given as JSON) with Ajv's draft-04 dialect, strict mode
// off, as the Node request validators built on Ajv do. Prints one line per
// schema it cannot compile and exits 1 if there was any.
import { readFileSync } from "node:fs";
import Ajv from "ajv-draft-04";

let failed = 0;
for (const file of process.argv.slice(2)) {
  const doc = JSON.parse(readFileSync(file, "utf8"));
  const ajv = new Ajv({ strict: false, validateFormats: false, logger: false });
  ajv.addSchema(doc, "doc.json");
  const names = Object.keys(doc.components?.schemas ?? {}).sort();
  for (const name of names) {
    try {
      ajv.getSchema(`doc.json#/components/schemas/${name}`);
    } catch (e) {
      failed++;
      console.log(`${file}: components.schemas.${name}: ${e.message}`);
    }
  }
  console.log(`${file}: ${names.length} component schemas compiled`);
}
process.exit(failed ? 1 : 0);
