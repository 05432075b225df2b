import { createContext, useContext } from 'react';

// The page's CSP nonce, for React Router's inline scripts. The server renders with it; in the
// browser it is empty (the scripts have run by then, and browsers hide nonces from the page).
const NonceContext = createContext('');

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
