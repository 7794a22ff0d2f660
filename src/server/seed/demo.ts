// The demo a new store starts with (unless --empty): four workflows covering every channel and a
// digest, an integration per channel (two for email, so set-primary has something to do), a few
// subscribers with chat and push credentials, a context, a tenant and a topic. Control values are
// Liquid templates the workflow engine renders (the digest's summary loops over its events).
import type { SeedFile } from './schema.js';

/**
 * The demo as the seed schema gives it back (defaults written out), so that a new store's start checks
 * nothing: test/server/seed-demo.test.ts checks it against the schema.
 */
const DEMO: SeedFile = {
  integrations: [
    {
      identifier: 'sendgrid',
      name: 'SendGrid',
      providerId: 'sendgrid',
      channel: 'email',
      active: true,
      primary: true,
      credentials: { apiKey: 'SG.local-demo', from: 'hello@example.com', senderName: 'Acme' },
    },
    {
      identifier: 'postmark',
      name: 'Postmark',
      providerId: 'postmark',
      channel: 'email',
      active: true,
      primary: false,
      credentials: { apiKey: 'local-demo', from: 'hello@example.com', senderName: 'Acme' },
    },
    {
      identifier: 'twilio',
      name: 'Twilio',
      providerId: 'twilio',
      channel: 'sms',
      active: true,
      primary: true,
      credentials: { accountSid: 'AC-local-demo', token: 'local-demo', from: '+15550000000' },
    },
    { identifier: 'slack', name: 'Slack', providerId: 'slack', channel: 'chat', active: true, primary: false, credentials: { applicationId: 'local-demo' } },
    {
      identifier: 'fcm',
      name: 'Firebase Cloud Messaging',
      providerId: 'fcm',
      channel: 'push',
      active: true,
      primary: false,
      credentials: { serviceAccount: '{}' },
    },
  ],
  subscribers: [
    {
      subscriberId: 'ada',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+15550100001',
      locale: 'en-GB',
      timezone: 'Europe/London',
      data: { plan: 'pro' },
      channels: [
        { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.slack.com/services/T000/B000/local-demo' } },
        { providerId: 'fcm', credentials: { deviceTokens: ['demo-device-token-ada'] } },
      ],
    },
    {
      subscriberId: 'grace',
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      phone: '+15550100002',
      timezone: 'America/New_York',
      channels: [{ providerId: 'fcm', credentials: { deviceTokens: ['demo-device-token-grace'] } }],
    },
    { subscriberId: 'alan', firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' },
  ],
  contexts: [{ type: 'tenant', id: 'acme', data: { name: 'Acme Corp', plan: 'enterprise' } }],
  tenants: [{ identifier: 'acme', name: 'Acme Corp' }],
  topics: [{ key: 'engineering', name: 'Engineering', subscribers: ['ada', 'grace', 'alan'] }],
  workflows: [
    {
      workflowId: 'welcome',
      name: 'Welcome',
      description: 'Greets a new user in the app, then by email',
      active: true,
      tags: ['onboarding'],
      steps: [
        {
          stepId: 'in-app',
          name: 'In-app welcome',
          type: 'in_app',
          controlValues: {
            subject: 'Welcome to {{ payload.appName | default: "Acme" }}',
            body: 'Welcome {{ subscriber.firstName | default: "there" }}! Your workspace is ready.',
            primaryAction: { label: 'Get started', redirect: { url: '/onboarding', target: '_self' } },
            secondaryAction: { label: 'Read the guide', redirect: { url: 'https://docs.example.com/start', target: '_blank' } },
            data: { kind: 'welcome' },
          },
        },
        {
          stepId: 'email',
          name: 'Welcome email',
          type: 'email',
          controlValues: {
            subject: 'Welcome aboard, {{ subscriber.firstName | default: "friend" }}',
            body: [
              '<p>Hi {{ subscriber.firstName | default: "there" }},</p>',
              '<p>Thanks for joining {{ payload.appName | default: "Acme" }}.</p>',
              '{% if subscriber.data.plan == "pro" %}<p>Your Pro features are switched on.</p>{% endif %}',
              '<p><a href="https://app.example.com/onboarding">Finish setting up</a></p>',
            ].join(''),
            editorType: 'html',
          },
        },
      ],
    },
    {
      workflowId: 'comment-digest',
      name: 'Comment digest',
      description: 'Collects the comments on a post for ten minutes, then posts one in-app summary listing them',
      active: true,
      tags: ['collaboration'],
      steps: [
        { stepId: 'digest', name: 'Collect comments', type: 'digest', controlValues: { amount: 10, unit: 'minutes', digestKey: 'payload.postId' } },
        {
          stepId: 'in-app',
          name: 'Comment summary',
          type: 'in_app',
          controlValues: {
            subject: '{{ steps.digest.eventCount | pluralize: "new comment" }} on {{ payload.postTitle | default: "your post" }}',
            body: '{% for event in steps.digest.events %}{{ event.payload.author | default: "Someone" }}: {{ event.payload.comment }}\n{% endfor %}',
            redirect: { url: '{{ payload.postUrl }}' },
          },
        },
      ],
    },
    {
      workflowId: 'otp',
      name: 'One-time password',
      description: 'Sends a login code by SMS',
      active: true,
      severity: 'high',
      critical: true,
      steps: [{ stepId: 'sms', name: 'Code by SMS', type: 'sms', controlValues: { body: 'Your Acme code is {{ payload.code }}. It expires in 10 minutes.' } }],
    },
    {
      workflowId: 'incident',
      name: 'Incident alert',
      description: 'Alerts the on-call team in chat and on their phones',
      active: true,
      severity: 'high',
      tags: ['ops'],
      steps: [
        {
          stepId: 'chat',
          name: 'Chat alert',
          type: 'chat',
          controlValues: { body: ':rotating_light: {{ payload.service | upcase }} is {{ payload.status | default: "down" }}' },
        },
        {
          stepId: 'push',
          name: 'Push alert',
          type: 'push',
          controlValues: { subject: 'Incident: {{ payload.service }}', body: '{{ payload.summary | default: "Check the status page" }}' },
        },
      ],
    },
  ],
  environments: [],
};

/** The demo data, a copy of its own for each store (applying a seed may change what it is given). */
export function demoSeed(): SeedFile {
  return structuredClone(DEMO);
}
