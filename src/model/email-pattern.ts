/**
 * The basic e-mail pattern the mailing list and sign-up accept: something@something.tld, tld of two letters or more.
 * In its own module so browser code can use it without pulling zod (about 20 KB gzip) into an island.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
