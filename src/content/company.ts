/** Who runs DangleWatch: the contact page, footer and legal pages read these. */
export const COMPANY = {
  name: 'DangleWatch',
  legalName: 'DangleWatch LLC',
  street: '30 N Gould St, Suite R',
  city: 'Sheridan',
  region: 'WY',
  regionName: 'Wyoming',
  postalCode: '82801',
  country: 'USA',
  supportEmail: 'support@danglewatch.com',
  privacyEmail: 'privacy@danglewatch.com',
  securityEmail: 'security@danglewatch.com',
} as const;
