/**
 * Accessibility fixes for the Swagger UI page at `/docs`, passed to @fastify/swagger-ui:
 * the top bar (a logo without text and an unlabelled address box) is hidden, colours that
 * fell short of 4.5:1 contrast are darkened (the Try it out buttons and the numbers in
 * highlighted JSON too), and a small script gives the tag and schema headings level 2 under
 * the page's h1 and an operation's headings the levels below, puts the API description in a
 * named region, names each operation's responses region and its body and example controls,
 * and lets the keyboard reach scrolling code blocks. axe-core reports no violation on the
 * page with them and `deepLinking: false`, before and after Try it out
 * (test/http/docs-browser.test.ts).
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
.swagger-ui .btn.try-out__btn.cancel { color: #b42318; border-color: #b42318; }
.swagger-ui .btn.execute { background-color: #0b5cad; border-color: #0b5cad; }
.swagger-ui .download-contents { background: #4b5260; }
.swagger-ui .microlight span[style*="rgb(211, 99, 99)"] { color: #ff9e9e !important; }
/* The document defines no response links, so on a phone the column saying "No links" gives way. */
@media (max-width: 480px) { .swagger-ui .response-col_links { display: none; } }
.swagger-ui .opblock.opblock-head .opblock-summary-method,
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #5a32a3; }
`;

// Swagger UI renders with React after load, so the fixes are applied as it draws.
const JS = `(function () {
  var root = document.getElementById('swagger-ui');
  if (!root) return;
  function fix() {
    root.querySelectorAll('h3.opblock-tag:not([aria-level]), section.models > h4:not([aria-level])').forEach(function (h) { h.setAttribute('aria-level', '2'); });
    root.querySelectorAll('.opblock-body h4:not([aria-level])').forEach(function (h) { h.setAttribute('aria-level', '3'); });
    root.querySelectorAll('.opblock-body h5:not([aria-level])').forEach(function (h) { h.setAttribute('aria-level', '4'); });
    root.querySelectorAll('[role=region][id$="_responses"]:not([aria-label])').forEach(function (region) {
      var op = region.closest('.opblock');
      var method = op && op.querySelector('.opblock-summary-method');
      var path = op && op.querySelector('.opblock-summary-path');
      region.setAttribute('aria-label', 'Responses of ' + (method ? method.textContent + ' ' : '') + (path ? path.textContent : region.id));
    });
    root.querySelectorAll('textarea.body-param__text:not([aria-label])').forEach(function (t) { t.setAttribute('aria-label', 'Request body'); });
    root.querySelectorAll('select.examples-select-element:not([aria-label])').forEach(function (s) { s.setAttribute('aria-label', 'Example'); });
    root.querySelectorAll('pre.microlight:not([tabindex])').forEach(function (p) { p.setAttribute('tabindex', '0'); });
    var dialog = root.querySelector('.dialog-ux .modal-ux:not([role])');
    if (dialog) {
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-modal', 'true');
      dialog.setAttribute('aria-label', 'Available authorizations');
    }
    root.querySelectorAll('.modal-ux-header h3:not([aria-level])').forEach(function (h) { h.setAttribute('aria-level', '2'); });
    root.querySelectorAll('.auth-container h4:not([aria-level])').forEach(function (h) { h.setAttribute('aria-level', '3'); });
    root.querySelectorAll('.modal-ux button.close-modal:not([aria-label])').forEach(function (b) { b.setAttribute('aria-label', 'Close'); });
    // Its submit buttons read "Authorize" or "Logout" but are named "Apply credentials".
    root.querySelectorAll('.auth-container .auth-btn-wrapper button').forEach(function (b) {
      var text = (b.textContent || '').trim();
      var scheme = b.closest('.auth-container');
      var name = scheme && scheme.querySelector('h4 code, h4');
      var label = text + (name ? ' ' + (name.textContent || '').trim().split(/\\s/)[0] : '');
      if (text && b.getAttribute('aria-label') !== label) b.setAttribute('aria-label', label);
    });
    var info = root.querySelector('.information-container:not([role])');
    if (info) { info.setAttribute('role', 'region'); info.setAttribute('aria-label', 'About this API'); }
  }
  new MutationObserver(fix).observe(root, { childList: true, characterData: true, subtree: true });
  fix();
})();`;

export const DOCS_THEME: NonNullable<FastifySwaggerUiOptions['theme']> = {
  title: 'Quarry API reference',
  css: [{ filename: 'accessible.css', content: CSS }],
  js: [{ filename: 'accessible.js', content: JS }],
};
