import { defineErrors } from '../platform/errors.ts';

export const aggregatorErrors = defineErrors({
  not_authorized: {
    status: 403,
    message:
      'Your authorization does not cover this currency, jurisdiction, territory or wallet origin (details.field, details.value).',
  },
  ip_not_allowed: {
    status: 403,
    message:
      "This address is not in your authorization's allowed source IPs (details.ip); ask the platform to add it, " +
      'or call from an allowed address.',
  },
  activation_not_permitted: {
    status: 403,
    message:
      'Your authorization does not let you activate clients (its autoActivation is off): ask the platform ' +
      'administrator who manages your authorization to allow it, then call ActivateClient again.',
  },
  suspended_by_platform: {
    status: 403,
    message: 'The platform has suspended this client; only the platform can lift it.',
  },
  credentials_revoked_by_platform: {
    status: 403,
    message: "The platform revoked this client's integration credentials; only the platform can lift it.",
  },
  duplicate_external_id: { status: 409, message: 'You already have a client with this externalId (details.clientId).' },
  quota_exceeded: { status: 409, message: 'The client quota of your authorization is used up (details.quota).' },
  already_active: { status: 409, message: 'This client is already active.' },
  not_active: {
    status: 409,
    message: 'Integration keys exist only after activation; activate the client first.',
  },
  configuration_changed: {
    status: 409,
    message:
      'The client, authorization or API key changed during activation; nothing was activated (details.changed). ' +
      'Read the client and retry with a new Idempotency-Key.',
  },
  wallet_validation_failed: {
    status: 400,
    message: 'A wallet failed an activation check (details: environment, check, endpoint, reason, status).',
  },
  deployment_not_configured: {
    status: 400,
    message:
      'This deployment does not offer integration sandboxes, so no client can be activated; contact the platform.',
  },
  authorization_missing: {
    status: 409,
    message: 'Set the authorization before issuing keys: a key never outlives it.',
  },
  authorization_expired: { status: 409, message: 'The authorization has expired; renew it first.' },
  not_suspended: { status: 409, message: 'The platform holds nothing on this client.' },
});
