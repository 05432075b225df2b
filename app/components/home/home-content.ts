// Fixed texts of the home page (SPEC 2 Home); the editable ones come from content sections instead.

// `photo`: the field of content section site_photos that holds the person's photo.
export const TESTIMONIALS = [
  {
    quote:
      'The listing presentation course changed how I walk into every appointment. I stopped competing on commission and started winning on value.',
    name: 'Sarah Mitchell',
    photo: 'testimonial1_photo',
    role: 'Realtor, Austin TX',
    result: '3x more listings in 6 months',
  },
  {
    quote: 'I listen to the podcast on every drive between showings. The lender episodes alone saved two of my deals this year.',
    name: 'David Chen',
    photo: 'testimonial2_photo',
    role: 'Broker Associate, San Diego CA',
    result: '$2.1M in closed volume',
  },
  {
    quote: 'As a new agent I had no idea where to start. The 90-day plan and the community got me to my first closing in 11 weeks.',
    name: 'Maria Rodriguez',
    photo: 'testimonial3_photo',
    role: 'New Agent, Miami FL',
    result: 'First deal in 11 weeks',
  },
] as const;

export const WITHOUT_POINTS = [
  'Guessing at scripts and losing listings to more confident agents',
  'Inconsistent lead generation and an unpredictable income',
  'Expensive seminars that fit neither your schedule nor your budget',
  'Learning alone, by trial and error, one lost deal at a time',
  'No clear plan for growing from agent to team leader',
];

export const WITH_POINTS = [
  'Proven scripts and presentations that win listings at the right price',
  'A daily lead generation system that fills your pipeline',
  'Expert-led training on your phone, whenever you have ten minutes',
  'A community of ambitious agents and coaches in your corner',
  'A step-by-step path from first deal to your own team',
];

/** Cards 4 to 6; cards 1 to 3 come from content section homepage_features. */
export const FIXED_FEATURES = [
  { title: 'Private Community', description: 'Ask questions, share wins and get feedback from agents and brokers across the country.' },
  { title: 'Coaching Podcast', description: 'Weekly episodes with top producers and lenders, free for everyone, streaming or offline.' },
  { title: 'Resources Library', description: 'Downloadable scripts, templates, workbooks and market reports you can use today.' },
];

export const HOME_FAQS = [
  {
    q: 'What is RealtyPocket?',
    a: 'A membership coaching platform for real estate agents and brokers: self-paced video courses, daily tips, live coaching, a private community, a podcast and a resources library, all from your phone.',
  },
  {
    q: 'Is there a free plan?',
    a: 'Yes. A free account includes free courses, the podcast, daily tips and a preview of the community. Upgrade whenever you are ready.',
  },
  {
    q: 'Who are the coaches?',
    a: 'RealtyPocket was founded by a mortgage expert and veteran lending specialist with more than 16 years of experience, and our coaches are working agents, brokers and team leaders.',
  },
  {
    q: 'Do I get a certificate?',
    a: 'Yes. Finish every lesson of a course and you earn a certificate of completion with a verification code.',
  },
  {
    q: 'Can I learn on my phone?',
    a: 'Absolutely. The site is built for phones first, and the mobile app for iOS and Android lets members download content for offline use.',
  },
  { q: 'How often is new content added?', a: 'We add new courses, tips and resources every month, and a new podcast episode most weeks.' },
  {
    q: 'Can I cancel anytime?',
    a: 'Yes. Cancel whenever you like; your membership stays active until the end of the billing period, with no cancellation fees. First-time subscribers also get a 30-day money-back guarantee.',
  },
  { q: 'Do you offer team pricing?', a: 'Yes. Teams and brokerages with 5 or more agents get special pricing on request.' },
];
