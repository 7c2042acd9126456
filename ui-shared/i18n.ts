/**
 * i18next set up for one app from its catalogue (login-ui/src/i18n, console/src/i18n): every string a person
 * reads comes from the catalogue, so a translation is one more resource file. English is the fallback.
 */
import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';

export function initI18n(resources: Resource): typeof i18next {
  const languages = Object.keys(resources);
  const preferred = (navigator.languages ?? [navigator.language]).map((tag) => tag.split('-')[0]!);
  const lng = preferred.find((tag) => languages.includes(tag)) ?? 'en';
  void i18next.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: 'en',
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  });
  return i18next;
}
