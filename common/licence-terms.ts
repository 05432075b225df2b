// The words of the CE ledger (issue 33, part 4), without zod: the pages that only show them load no
// validation code (common/licence.contract.ts holds the schemas and re-exports these).

/** The states (and DC) that license real estate agents, by their postal code. */
export const US_STATES = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut',
  DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois',
  IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland',
  MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana',
  NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York',
  NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania',
  RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah',
  VT: 'Vermont', VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
} as const; // prettier-ignore
export type UsState = keyof typeof US_STATES;
export const STATE_CODES = Object.keys(US_STATES) as [UsState, ...UsState[]];

export const LICENCE_TYPES = ['salesperson', 'broker'] as const;
export type LicenceType = (typeof LICENCE_TYPES)[number];
export const LICENCE_TYPE_LABEL: Record<LicenceType, string> = { salesperson: 'Salesperson', broker: 'Broker' };

/** What a CE hour is about: the topics states require a minimum of, and elective hours that count toward the total only. */
export const CE_TOPICS = ['ethics', 'fair_housing', 'agency', 'legal_update', 'contracts', 'risk_management', 'elective'] as const;
export type CeTopic = (typeof CE_TOPICS)[number];
export const CE_TOPIC_LABEL: Record<CeTopic, string> = {
  ethics: 'Ethics',
  fair_housing: 'Fair housing',
  agency: 'Agency',
  legal_update: 'Legal update',
  contracts: 'Contracts',
  risk_management: 'Risk management',
  elective: 'Elective',
};
/** The topics a state can require a minimum of (elective hours are what is left of the total). */
export const REQUIRED_TOPIC_CHOICES = CE_TOPICS.filter((topic) => topic !== 'elective');
