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
  header: Type.Optional(Type.String({ maxLength: 8 })),
  oddsFormat: Type.Optional(Type.String({ maxLength: 16 })),
  // the theme's design tokens (sdk/protocol.ts THEME_KEYS), each checked by the app
  'theme.primary': Type.Optional(Type.String({ maxLength: 40 })),
  'theme.accent': Type.Optional(Type.String({ maxLength: 40 })),
  'theme.background': Type.Optional(Type.String({ maxLength: 40 })),
  'theme.radius': Type.Optional(Type.String({ maxLength: 8 })),
  'theme.fontFamily': Type.Optional(Type.String({ maxLength: 40 })),
  'theme.mode': Type.Optional(Type.String({ maxLength: 8 })),
});
