import { en } from './en.ts';

export const resources = { en: { translation: en } };
