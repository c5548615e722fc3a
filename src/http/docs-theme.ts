/**
 * Accessibility fixes for the Swagger UI page at `/docs`, passed to @fastify/swagger-ui:
 * the top bar (a logo without text and an unlabelled address box) is hidden, colours that
 * fell short of 4.5:1 contrast are darkened, and a small script gives the tag and schema headings level 2
 * under the page's h1 and puts the API description in a named region. axe-core reports no
 * violation on the page with them and `deepLinking: false` (test/web/keys-admin-browser.test.ts).
 */
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

const CSS = `
.swagger-ui .topbar { display: none; }
.swagger-ui .info .title small { background: #4b5260; }
.swagger-ui .info .title small.version-stamp { background: #3b6e00; }
.swagger-ui .info .url, .swagger-ui .info a { color: #174a94; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #0b5cad; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #146c43; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #8a4b00; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b42318; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #006b6b; }
.swagger-ui .opblock.opblock-deprecated { opacity: 1; }
.swagger-ui .opblock.opblock-deprecated .opblock-summary-method { background: #57606a; color: #fff; }
.swagger-ui .opblock.opblock-deprecated .opblock-summary-path,
.swagger-ui .opblock.opblock-deprecated .opblock-summary-path span,
.swagger-ui .opblock.opblock-deprecated .opblock-summary-description { color: #57606a; }
.swagger-ui .btn.authorize { color: #146c43; border-color: #146c43; }
.swagger-ui .btn.authorize svg { fill: #146c43; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #57606a; }
.swagger-ui .opblock.opblock-head .opblock-summary-method,
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #5a32a3; }
`;

// Swagger UI renders with React after load, so the fixes are applied as it draws.
const JS = `(function () {
  var root = document.getElementById('swagger-ui');
  if (!root) return;
  function fix() {
    root.querySelectorAll('h3.opblock-tag:not([aria-level]), section.models > h4:not([aria-level])').forEach(function (h) { h.setAttribute('aria-level', '2'); });
    var info = root.querySelector('.information-container:not([role])');
    if (info) { info.setAttribute('role', 'region'); info.setAttribute('aria-label', 'About this API'); }
  }
  new MutationObserver(fix).observe(root, { childList: true, subtree: true });
  fix();
})();`;

export const DOCS_THEME: NonNullable<FastifySwaggerUiOptions['theme']> = {
  title: 'Quarry API reference',
  css: [{ filename: 'accessible.css', content: CSS }],
  js: [{ filename: 'accessible.js', content: JS }],
};
