// Translations (openapi.json TranslationController_*): per resource (a workflow or a layout) and locale,
// a JSON object of texts that `{{t.key}}` in the resource's templates reads; the master JSON is every
// resource's texts for one locale, organised by resource identifier.
import { z } from 'zod';

const TRANSLATION_RESOURCE_TYPES = ['workflow', 'layout'] as const;
export const TranslationResourceType = z.enum(TRANSLATION_RESOURCE_TYPES);
export type TranslationResourceType = z.infer<typeof TranslationResourceType>;

/** The service's locale codes: `language_REGION` (en_US, fr_FR); a language alone is not one. */
export const LOCALE_PATTERN = /^[a-z]{2,3}_[A-Z]{2}$/;
const Locale = z.string().regex(LOCALE_PATTERN, 'must be a locale code in language_REGION format, e.g. en_US');

const Content = z.record(z.string(), z.unknown());

export const CreateTranslationBody = z.looseObject({
  resourceId: z.string().min(1),
  resourceType: TranslationResourceType,
  locale: Locale,
  content: Content,
});
export type CreateTranslationBody = z.infer<typeof CreateTranslationBody>;

export const Translation = z.looseObject({
  resourceId: z.string(),
  resourceType: TranslationResourceType,
  locale: z.string(),
  content: Content,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Translation = z.infer<typeof Translation>;

export const TranslationGroup = z.looseObject({
  resourceId: z.string(),
  resourceType: TranslationResourceType,
  resourceName: z.string(),
  locales: z.array(z.string()),
  outdatedLocales: z.array(z.string()).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TranslationGroup = z.infer<typeof TranslationGroup>;

export const TranslationParams = z.looseObject({ resourceType: TranslationResourceType, resourceId: z.string().min(1), locale: z.string().min(1) });
export const TranslationGroupParams = z.looseObject({ resourceType: TranslationResourceType, resourceId: z.string().min(1) });

export const MasterJsonQuery = z.looseObject({ locale: z.string().optional() });

/** One locale's texts of every resource: `{workflows: {id: content}, layouts: {id: content}}`. */
export const MasterJson = z.looseObject({
  workflows: z.record(z.string(), Content),
  layouts: z.record(z.string(), Content),
});
export type MasterJson = z.infer<typeof MasterJson>;

export const ImportMasterJsonBody = z.looseObject({
  locale: Locale,
  masterJson: z.looseObject({
    workflows: z.record(z.string(), Content).optional(),
    layouts: z.record(z.string(), Content).optional(),
  }),
});
export type ImportMasterJsonBody = z.infer<typeof ImportMasterJsonBody>;

export const ImportMasterJsonResult = z.looseObject({
  success: z.boolean(),
  message: z.string(),
  successful: z.array(z.string()).optional(),
  failed: z.array(z.string()).optional(),
});
export type ImportMasterJsonResult = z.infer<typeof ImportMasterJsonResult>;

export const UploadTranslationsResult = z.looseObject({
  totalFiles: z.number(),
  successfulUploads: z.number(),
  failedUploads: z.number(),
  errors: z.array(z.string()),
});
export type UploadTranslationsResult = z.infer<typeof UploadTranslationsResult>;
