import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  // Public pages are rendered on the server so they are indexable and paint fast on phones.
  ssr: true,
} satisfies Config;
