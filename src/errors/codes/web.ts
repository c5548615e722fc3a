import type { CodeTable } from '../code-table.ts';

/**
 * Error codes raised by the web pages (sign-in, forms, the console's session endpoint,
 * the administration page). The pages show them in the same body shape as the API.
 */
export const WEB_CODES = {
  WEB_SIGN_IN_REQUIRED: {
    category: 'authentication',
    message: 'You are not signed in (or your session has ended). Sign in on the home page at / and try again.',
    fix: 'Sign in with your e-mail address and password, or with a login code from the administrator.',
  },
  WEB_LOGIN_CODE_INVALID: {
    category: 'authentication',
    message: 'The login code is not valid: it may be mistyped, already used, or expired. Ask {contact} for a new one.',
    fix: 'Login codes work once and for 30 minutes; an administrator issues a new one on the administration page or with `quarry accounts login-code EMAIL`.',
  },
  WEB_LOGIN_CODE_ACCOUNT_INACTIVE: {
    category: 'conflict',
    message: 'No login code was issued: the account {account} is {state}, and only an active account may sign in.',
    fix: 'Activate the account first (the administration page or `quarry accounts activate EMAIL`), then issue the code; a closed account cannot be reopened.',
  },
  WEB_FORM_EXPIRED: {
    category: 'permission',
    message:
      'The form could not be accepted because its security token is missing or out of date. Reload the page and send it again.',
    fix: 'Reload the page (the token is renewed with it) and submit the form again; keep cookies enabled for this site.',
  },
  WEB_ADMIN_REQUIRED: {
    category: 'permission',
    message: 'Only administrators of this Quarry service may use the administration page.',
    fix: 'An operator grants the administrator role with `quarry accounts admin EMAIL`.',
  },
} as const satisfies CodeTable;
