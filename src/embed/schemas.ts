import { Type } from 'typebox';

/**
 * The iframe URL's query (contract: "Embed script and iframe URL"). Bounded like every input; values the app
 * cannot use (an unknown path or locale) are the app's to report, so only sizes are checked here. Other
 * parameters are let through: a casino may add its own tracking parameters to the URL it frames.
 */
export const SportsbookPageQuery = Type.Object({
  tenant: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
  launch: Type.Optional(Type.String({ maxLength: 200 })),
  token: Type.Optional(Type.String({ maxLength: 200 })),
  path: Type.Optional(Type.String({ maxLength: 300 })),
  locale: Type.Optional(Type.String({ maxLength: 16 })),
  height: Type.Optional(Type.String({ maxLength: 8 })),
  origin: Type.Optional(Type.String({ maxLength: 300 })),
});
