import { en } from './en.ts';
import { fgaEn } from '../fga/i18n-en.ts';

// The FGA section keeps its own catalogue (console/src/fga/i18n-en.ts) as namespace "fga".
export const resources = { en: { translation: en, fga: fgaEn } };
