// Encodes each text of a JSON list with the gpt-3-encoder package's own JavaScript encoder
// (GPT-2's byte-level BPE), printing a JSON list of id lists.
// usage: node encode_with_gpt3_encoder.js PACKAGE_DIR TEXTS.json
const fs = require('fs');
const path = require('path');
const { encode } = require(path.resolve(process.argv[2], 'index.js'));
const texts = JSON.parse(fs.readFileSync(process.argv[3], 'utf-8'));
process.stdout.write(JSON.stringify(texts.map((text) => encode(text))));
