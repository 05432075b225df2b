import { redirect, type RouterContextProvider } from 'react-router';
import { requestServicesContext } from '#request-context';

/** Login and signup send a member who is already signed in straight to the dashboard. */
export function redirectSignedInMember(context: Readonly<RouterContextProvider>): null {
  if (context.get(requestServicesContext).viewer.member) throw redirect('/dashboard');
  return null;
}
