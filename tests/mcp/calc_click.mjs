// calc_click.mjs ERA: through one official SDK (ERA legacy: @modelcontextprotocol/sdk,
// modern: @modelcontextprotocol/client), snapshot GNOME Calculator, find its 7 button and
// click it. Prints {"snapshot": envelope, "click": envelope} as one line; the caller reads
// the display independently.
import { connectLegacy, connectModern, envelopeOf } from './clients.mjs';

const era = process.argv[2];
const { client } = era === 'modern' ? await connectModern() : await connectLegacy();
const app = 'gnome-calculator';
try {
  const snapshot = envelopeOf(await client.callTool({ name: 'desktop_snapshot',
    arguments: { app, interactive_only: true, compact: true } }));
  let seven = null;
  for (const name of ['7', '7 7']) { // GTK 4.8 names the button from its label and its text
    const found = envelopeOf(await client.callTool({ name: 'desktop_find',
      arguments: { app, role: 'button', name, exact: true, first: true } }));
    if (found.ok && found.data.match) { seven = found.data.match.ref_id; break; }
  }
  if (!seven) throw new Error('no 7 button');
  const click = envelopeOf(await client.callTool({ name: 'desktop_click',
    arguments: { ref_id: seven } }));
  process.stdout.write(JSON.stringify({ snapshot, click }) + '\n');
} finally {
  await client.close();
}
