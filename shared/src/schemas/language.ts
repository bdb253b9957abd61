import { z } from 'zod';
import { languages } from '../messages/languages';

/** One of the languages visitors are spoken to in (docs/languages.md): `zh` is Simplified Chinese. */
export const LanguageCode = z.enum(languages).meta({
  description:
    'A language visitors read Gatehouse in: `en` English, `de` German, `fr` French, `es` Spanish, `zh` Simplified Chinese, `ar` Arabic.',
});
