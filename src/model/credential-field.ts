/**
 * One credential field of a connect form (a DNS provider's, a cloud's): its key in the request's
 * `credentials`. A secret is a password input, an id a text input, a key file a textarea pasted whole.
 */
export interface CredentialField {
  key: string;
  label: string;
  input: 'password' | 'text' | 'textarea';
  placeholder?: string;
  /** Left empty, it is not sent. */
  optional?: boolean;
}
