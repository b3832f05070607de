// What `require("kubelet-sim")` gets: kubelet-sim is an ES module (package.json "type": "module"),
// and this says so in one line, with the two ways to load it, instead of Node's
// ERR_PACKAGE_PATH_NOT_EXPORTED.
"use strict";
const err = new Error(
  'kubelet-sim is an ES module: load it with `import { simulate } from "kubelet-sim"` (an .mjs file, or "type": "module"), ' +
    'or from CommonJS with `const { simulate } = await import("kubelet-sim")`',
);
err.code = "ERR_REQUIRE_ESM";
throw err;
