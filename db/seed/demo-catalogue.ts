import type { Course, Lesson } from '../../common/courses.contract.ts';
import type { PodcastEpisode } from '../../common/podcast.contract.ts';
import type { Resource } from '../../common/resources.contract.ts';

// The demo catalogue loaded into an empty database (SEED_DEMO). Written for real estate agents and
// brokers. Its images are files under public/ (they show on public pages); its lesson videos and
// downloads are under db/seed/files/ and reach members only through the file store, so the site works offline.

/**
 * Lessons, episodes, resources and posts have their API shape, less what the API derives. A lesson's
 * video and a resource's download name a file under db/seed/files/, which the seed puts into the
 * file store as a members-only file at the course's or resource's tier.
 */
type DemoLesson = Omit<Lesson, 'has_video' | 'video_url' | 'free_preview' | 'attachments' | 'kind' | 'captions' | 'opens'> & {
  video_file: string | null;
};
export type DemoEpisode = PodcastEpisode;
export type DemoResource = Omit<Resource, 'has_download' | 'download_url'> & { download_file: string | null };
/** A demo discussion, with the replies that make its count (demo authors have a name, not an account). */
export interface DemoPost {
  id: string;
  user_name: string;
  title: string;
  content: string;
  created_at: string;
  replies: { user_name: string; body: string; created_at: string }[];
}

export interface DemoCourse extends Omit<Course, 'lesson_count' | 'early_access' | 'prerequisite'> {
  lessons: DemoLesson[];
}

const VIDEO_1 = 'lessons/lesson-preview-1.webm';
const VIDEO_2 = 'lessons/lesson-preview-2.webm';

const FOUNDER = 'Michael Reyes';

/** Builds a course's lessons with ids `<course>-l1`, `-l2`, ... */
function lessons(courseId: string, items: [title: string, duration: string, description: string, video: string | null][]): DemoLesson[] {
  return items.map(([title, duration, description, video], index) => ({
    id: `${courseId}-l${index + 1}`,
    title,
    duration,
    description,
    video_file: video,
  }));
}

/** A course's duration is the sum of its lessons ('mm:ss'), rounded to five minutes, as '1h 35m'. */
function totalDuration(items: DemoLesson[]): string {
  const seconds = items.reduce((sum, lesson) => {
    const [minutes = 0, secs = 0] = lesson.duration.split(':').map(Number);
    return sum + minutes * 60 + secs;
  }, 0);
  const minutes = Math.round(seconds / 300) * 5;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** The level follows the tier in the demo: free courses start, Gold ones go furthest. */
const LEVEL_OF_TIER = { free: 'beginner', bronze: 'intermediate', silver: 'intermediate', gold: 'advanced' } as const;

function course(
  id: string,
  fields: Omit<DemoCourse, 'id' | 'thumbnail' | 'duration' | 'lessons' | 'level' | 'certificate'>,
  items: Parameters<typeof lessons>[1],
): DemoCourse {
  const courseLessons = lessons(id, items);
  return {
    id,
    ...fields,
    level: LEVEL_OF_TIER[fields.tier],
    certificate: true,
    thumbnail: `/images/courses/${id}.svg`,
    duration: totalDuration(courseLessons),
    lessons: courseLessons,
  };
}

export const DEMO_COURSES: DemoCourse[] = [
  course(
    'first-90-days',
    {
      title: 'Your First 90 Days in Real Estate',
      description:
        'A day-by-day launch plan for newly licensed agents: set up your business, tell your sphere, book your first appointments and close your first deal within a quarter.',
      category: 'business',
      tier: 'free',
      instructor: FOUNDER,
    },
    [
      [
        'Setting Up Your Business Like a Business',
        '14:20',
        'Choosing a brokerage split, budgeting for your first six months and the tools you actually need.',
        VIDEO_1,
      ],
      [
        'Announcing Your Launch to Your Sphere',
        '12:45',
        'A simple letter, a phone script and a social post that tell 200 people you are in real estate, without sounding salesy.',
        VIDEO_2,
      ],
      [
        'The Daily Hour of Power',
        '16:10',
        'Time-block one hour of lead generation every morning and track calls, conversations and appointments.',
        VIDEO_1,
      ],
      [
        'Your First Buyer Consultation',
        '18:30',
        'Walk a first buyer through the process, set expectations and sign a buyer agreement with confidence.',
        VIDEO_2,
      ],
      [
        'From Contract to Closing',
        '15:05',
        'Inspection, appraisal and financing deadlines explained, with a checklist that keeps your first transaction on track.',
        VIDEO_1,
      ],
      ['Reviewing Your First Quarter', '11:40', 'Measure what worked, drop what did not and set goals for the next 90 days.', VIDEO_2],
    ],
  ),
  course(
    'sphere-of-influence',
    {
      title: 'Sphere of Influence Marketing',
      description:
        'Turn the people who already know you into a steady source of referrals with a 33-touch annual plan, pop-bys and a database you actually use.',
      category: 'marketing',
      tier: 'free',
      instructor: 'Danielle Brooks',
    },
    [
      [
        'Building Your Database From Scratch',
        '13:15',
        'Pull contacts from your phone, email and social accounts and sort them into A, B and C relationships.',
        VIDEO_1,
      ],
      [
        'The 33-Touch Annual Plan',
        '15:50',
        'A calendar of calls, notes, market updates and events that keeps you top of mind all year.',
        null,
      ],
      ['Pop-By Gifts That Get Remembered', '10:30', 'Low-cost seasonal gifts and the two sentences to say at the door.', VIDEO_2],
      [
        'Asking for Referrals Without Awkwardness',
        '14:05',
        'Scripts that make referral requests feel like a natural part of the conversation.',
        null,
      ],
      ['Client Appreciation Events', '16:20', 'Plan a yearly event that fills your pipeline for the following spring.', null],
    ],
  ),
  course(
    'mortgage-basics-for-agents',
    {
      title: 'Mortgage Basics Every Agent Should Know',
      description:
        'Our founder, a lending specialist with 16+ years of experience, explains pre-approvals, loan programs and closing costs so you can guide buyers and protect your deals.',
      category: 'specialization',
      tier: 'free',
      instructor: FOUNDER,
    },
    [
      [
        'Pre-Qualification Versus Pre-Approval',
        '12:10',
        'What each letter really means and why a fully underwritten approval wins in multiple offers.',
        VIDEO_1,
      ],
      [
        'Conventional, FHA, VA and USDA Loans',
        '17:35',
        'The programs your buyers will use, their down payments and the property conditions that can derail them.',
        VIDEO_2,
      ],
      ['Reading a Loan Estimate', '14:25', 'Walk buyers through the three-page estimate and spot the fees worth questioning.', VIDEO_1],
      [
        'Appraisal Gaps and How to Bridge Them',
        '15:40',
        'Options when the appraisal comes in low, from renegotiation to gap clauses.',
        VIDEO_2,
      ],
      ['Keeping Deals Alive Through Underwriting', '13:55', 'The borrower mistakes that kill loans late and how to prevent them.', VIDEO_1],
    ],
  ),
  course(
    'listing-presentation-mastery',
    {
      title: 'Listing Presentation Mastery',
      description:
        'Win more listings at the right price: pre-listing packages, a pricing conversation built on data, and a marketing plan sellers can see.',
      category: 'sales',
      tier: 'bronze',
      instructor: 'Sarah Whitfield',
    },
    [
      ['The Pre-Listing Package', '14:30', 'What to send before the appointment so sellers arrive already trusting you.', VIDEO_1],
      ['Walking the Home With the Seller', '16:15', 'Questions that uncover motivation, timeline and the improvements worth making.', null],
      [
        'The Pricing Conversation',
        '19:40',
        'Present comparables, absorption rate and price bands so sellers choose the right number themselves.',
        VIDEO_2,
      ],
      ['Presenting Your Marketing Plan', '17:20', 'Show photography, video, launch week and open house plans that set you apart.', null],
      ['Handling the Commission Question', '15:10', 'Explain your value and hold your fee without getting defensive.', VIDEO_1],
      ['Asking for the Signature', '12:55', 'Closing the appointment and setting the next steps before you leave the table.', null],
      [
        'Following Up When They Interview Others',
        '11:25',
        'Stay in the running with a follow-up sequence for sellers who are still deciding.',
        null,
      ],
    ],
  ),
  course(
    'open-house-lead-machine',
    {
      title: 'The Open House Lead Machine',
      description:
        'Turn every open house into five new conversations: neighbourhood invitations, sign-in systems that work and a follow-up plan for visitors.',
      category: 'marketing',
      tier: 'bronze',
      instructor: 'Danielle Brooks',
    },
    [
      [
        'Choosing the Right Listing to Hold Open',
        '11:50',
        'Which homes draw traffic and how to ask a colleague for their listing.',
        VIDEO_2,
      ],
      ['Door-Knocking the Neighbourhood', '13:30', 'Invite the neighbours the day before and meet future sellers.', null],
      ['Greeting and Qualifying Visitors', '16:45', 'Three questions that tell you who is a buyer, a seller or just curious.', VIDEO_1],
      ['Digital Sign-In and Follow-Up', '14:20', 'Capture contact details politely and follow up within 24 hours.', null],
      ['Converting Visitors Into Clients', '15:35', 'Move visitors to a buyer consultation or a home valuation.', null],
    ],
  ),
  course(
    'objection-handling',
    {
      title: 'Objection Handling for Agents',
      description:
        'Word-for-word responses to the objections you hear every week, from "we want to wait until spring" to "another agent will do it for less".',
      category: 'negotiation',
      tier: 'bronze',
      instructor: 'Marcus Greene',
    },
    [
      ['Why Objections Are Good News', '10:40', 'Treat objections as requests for information and keep the conversation going.', VIDEO_1],
      ['"We Want to Wait Until Spring"', '14:15', 'Show sellers the real cost of waiting with inventory and rate data.', null],
      ['"Another Agent Will Do It for Less"', '16:30', 'Compare net proceeds instead of commission percentages.', VIDEO_2],
      [
        '"We Are Going to Try It on Our Own First"',
        '15:20',
        'Stay helpful to for-sale-by-owner sellers until they are ready to list.',
        null,
      ],
      ['"We Need to Think About It"', '13:05', 'Uncover the real concern and agree on the next step.', null],
      ['Role-Play Drills', '18:25', 'Practice routines to make the responses sound natural.', VIDEO_1],
    ],
  ),
  course(
    'buyer-consultation-blueprint',
    {
      title: 'The Buyer Consultation Blueprint',
      description:
        'Run a buyer consultation that explains your value, sets expectations about compensation and turns browsers into committed clients.',
      category: 'sales',
      tier: 'bronze',
      instructor: 'Sarah Whitfield',
    },
    [
      ['Before the Meeting', '11:30', 'Pre-approval, questionnaire and the agenda you send ahead.', VIDEO_2],
      [
        'Explaining Buyer Agreements and Compensation',
        '17:45',
        'Talk clearly about how you are paid and what the written agreement covers.',
        VIDEO_1,
      ],
      ['Needs, Wants and Deal-Breakers', '13:20', 'Build a search that saves your buyers weekends of wasted showings.', null],
      ['Writing Offers That Win', '18:10', 'Terms beyond price that make sellers choose your buyer.', VIDEO_2],
    ],
  ),
  course(
    'negotiation-strategies',
    {
      title: 'Advanced Negotiation Strategies',
      description:
        'Negotiate repairs, appraisal gaps and multiple offers with a calm, prepared approach that protects your client and keeps the deal together.',
      category: 'negotiation',
      tier: 'silver',
      instructor: 'Marcus Greene',
    },
    [
      [
        'Preparation Wins Negotiations',
        '15:25',
        "Know both sides' motivations, deadlines and alternatives before you pick up the phone.",
        VIDEO_1,
      ],
      [
        'Managing Multiple-Offer Situations',
        '19:10',
        "Run a fair process as a listing agent and compete smartly as a buyer's agent.",
        VIDEO_2,
      ],
      ['Repair Requests After Inspection', '16:40', 'Separate deal-breakers from wish lists and use credits wisely.', null],
      ['Appraisal Gap Negotiations', '14:55', 'Options and scripts when value and price disagree.', VIDEO_1],
      ['Negotiating With Difficult Agents', '17:15', 'Keep emotions out and the transaction moving.', null],
      ['Saving Deals in Trouble', '18:30', 'Last-minute problems and the creative solutions that close anyway.', null],
    ],
  ),
  course(
    'social-media-for-agents',
    {
      title: 'Social Media That Sells Homes',
      description:
        'A content system for Instagram, Facebook and short video that builds your local brand in 30 minutes a day and brings in real leads.',
      category: 'marketing',
      tier: 'silver',
      instructor: 'Priya Nair',
    },
    [
      ['Picking Your Niche and Voice', '12:35', 'Become the agent people think of for a neighbourhood or a kind of home.', VIDEO_2],
      ['The Weekly Content Calendar', '15:10', 'Listings, local guides, market updates and behind-the-scenes posts in one plan.', null],
      ['Short Video Without Fear', '17:50', 'Film home tours and quick tips on your phone with good light and sound.', VIDEO_1],
      ['Turning Comments Into Conversations', '13:40', 'Move followers into direct messages and appointments.', null],
      ['Advertising on a Small Budget', '16:25', 'Boost the right posts and target local buyers and sellers.', VIDEO_2],
    ],
  ),
  course(
    'investor-clients',
    {
      title: 'Working With Real Estate Investors',
      description:
        'Speak the language of investors: cap rates, cash-on-cash returns and the 1% rule, and build a repeat-business niche with rental property buyers.',
      category: 'specialization',
      tier: 'silver',
      instructor: 'Jonathan Cole',
    },
    [
      ['What Investors Want From an Agent', '13:15', 'Speed, numbers and deal flow, and how to deliver all three.', VIDEO_1],
      ['Running the Numbers', '19:05', 'Cap rate, cash flow and cash-on-cash return worked through on a real duplex.', VIDEO_2],
      ['Finding Off-Market Opportunities', '16:30', 'Expired listings, probate and tired landlords.', null],
      ['Financing for Investors', '15:45', 'DSCR loans, portfolio lenders and the 1031 exchange timeline.', VIDEO_1],
      ['Building a Repeat Investor Business', '12:50', 'Turn one sale into five with property management and resale plans.', null],
    ],
  ),
  course(
    'luxury-market',
    {
      title: 'Breaking Into the Luxury Market',
      description:
        'Position yourself for high-end listings: luxury marketing standards, discreet client service and the networks that bring million-dollar referrals.',
      category: 'specialization',
      tier: 'gold',
      instructor: 'Victoria Hale',
    },
    [
      ['What Luxury Clients Expect', '14:50', 'Privacy, responsiveness and polish in every contact.', VIDEO_2],
      ['Marketing a Luxury Listing', '18:35', 'Architectural photography, print pieces and private previews.', VIDEO_1],
      ['Pricing Unique Properties', '16:20', 'When comparables are scarce: adjustments and the cost approach.', null],
      ['Building Your Luxury Network', '15:05', 'Wealth managers, attorneys and designers who refer.', VIDEO_2],
      ['Hosting Broker Previews and Events', '13:45', 'Events that get your listing in front of the right agents.', null],
      ['Negotiating at the High End', '17:40', 'Inspections, contingencies and egos at seven figures.', null],
    ],
  ),
  course(
    'team-building',
    {
      title: 'Building and Leading a Real Estate Team',
      description:
        "When to hire your first assistant, how to recruit buyer's agents and the systems, splits and accountability that make a team profitable.",
      category: 'business',
      tier: 'gold',
      instructor: FOUNDER,
    },
    [
      ['Are You Ready for a Team?', '12:25', 'The production and systems you need before you hire.', VIDEO_1],
      ['Hiring Your First Assistant', '15:40', 'Duties, pay and the 30-day training plan.', null],
      ["Recruiting Buyer's Agents", '17:10', 'Where to find them, what to offer and how to choose.', VIDEO_2],
      ['Splits, Caps and Team Economics', '19:20', 'Design compensation that is fair and keeps the team profitable.', null],
      ['Lead Distribution and Accountability', '16:35', 'Route leads fairly and coach with weekly numbers.', VIDEO_1],
      ['Culture and Retention', '14:15', 'Keep good agents for years, not months.', null],
      ['Scaling to Multiple Markets', '18:05', 'Expansion teams, partnerships and when to stop growing.', null],
      ['Your Exit Plan', '11:50', 'Build a team that can run, and be sold, without you.', null],
    ],
  ),
  course(
    'business-plan-and-finances',
    {
      title: 'Your Annual Business Plan and Finances',
      description:
        'Work backwards from your income goal to daily activities, set a marketing budget, plan for taxes and track the numbers that predict your year.',
      category: 'business',
      tier: 'silver',
      instructor: 'Jonathan Cole',
    },
    [
      ['From Income Goal to Daily Activities', '16:30', 'Turn a yearly number into weekly conversations and appointments.', VIDEO_2],
      ['Budgeting Your Marketing Spend', '13:45', 'Decide where each marketing dollar goes and measure its return.', null],
      ['Taxes and Quarterly Estimates', '15:20', 'Set money aside, track deductions and avoid April surprises.', VIDEO_1],
      ['The Five Numbers to Track Weekly', '12:40', 'Leading indicators that tell you how your year will end.', null],
    ],
  ),
  course(
    'relocation-specialist',
    {
      title: 'Becoming a Relocation Specialist',
      description:
        'Serve families and professionals moving into your market: corporate relocation programs, virtual tours and remote closings.',
      category: 'specialization',
      tier: 'gold',
      instructor: 'Victoria Hale',
    },
    [
      ['How Corporate Relocation Works', '14:10', 'Relocation companies, referral fees and what they expect of agents.', VIDEO_1],
      ['Virtual Tours and Remote Buyers', '15:55', 'Show homes by video and help buyers decide from a distance.', VIDEO_2],
      ['Area Guides That Win Relocating Clients', '12:30', 'Schools, commutes and neighbourhoods explained for newcomers.', null],
      ['Remote Closings and Timelines', '13:35', 'Coordinate inspections, mobile notaries and move dates.', null],
      [
        'Building a Relocation Referral Pipeline',
        '14:45',
        'Join relocation company networks, partner with local HR managers and earn repeat transferee referrals.',
        VIDEO_2,
      ],
    ],
  ),
  course(
    'cold-calling-confidence',
    {
      title: 'Prospecting and Cold Calling With Confidence',
      description:
        'Expired listings, for-sale-by-owners and circle prospecting: scripts, call blocks and a follow-up system that turns conversations into appointments.',
      category: 'sales',
      tier: 'gold',
      instructor: 'Marcus Greene',
    },
    [
      ['Mindset for the Phone', '11:20', 'Handle rejection and keep a steady pace through a two-hour call block.', VIDEO_2],
      ['Expired Listing Scripts', '16:50', 'Call expired sellers the morning their listing ends and book the appointment.', VIDEO_1],
      ['For-Sale-by-Owner Conversations', '15:30', 'Offer value first and earn the listing later.', null],
      ['Circle Prospecting Around a Sale', '13:25', 'Use every just-listed and just-sold as a reason to call the neighbours.', null],
      ['Follow-Up That Converts', '14:40', 'A 12-week follow-up plan for leads who are not ready yet.', VIDEO_2],
    ],
  ),
];

// Spotify episode ids are 22 base62 characters.
export const DEMO_EPISODES: DemoEpisode[] = [
  {
    id: 'ep-s2e04',
    title: 'Winning Listings in a Shifting Market',
    description:
      'Inventory is up and buyers are pickier. We break down how top listing agents are pricing, preparing and launching homes so they still sell in the first two weeks.',
    thumbnail: '/images/podcast/ep-s2e04.svg',
    season: 2,
    episode: 4,
    duration: '42:18',
    spotify_url: 'https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk',
    published_at: '2026-11-10T13:00:00.000Z',
  },
  {
    id: 'ep-s2e03',
    title: 'What Lenders Wish Agents Knew',
    description:
      'Our founder sits down with two loan officers to talk about the questions that save deals: credit changes, gift funds, appraisal gaps and the last week before closing.',
    thumbnail: '/images/podcast/ep-s2e03.svg',
    season: 2,
    episode: 3,
    duration: '38:05',
    spotify_url: 'https://open.spotify.com/episode/7bnHDqHDY8Z3HEJ8MdSG4s',
    published_at: '2026-08-18T13:00:00.000Z',
  },
  {
    id: 'ep-s2e02',
    title: 'Building a Referral Business From Day One',
    description:
      'A second-year agent shares how she closed 22 transactions almost entirely from her sphere, with the exact touch plan and events she uses.',
    thumbnail: '/images/podcast/ep-s2e02.svg',
    season: 2,
    episode: 2,
    duration: '45:40',
    spotify_url: 'https://open.spotify.com/episode/1k9XrWqD3vUj5LhT8pYcQe',
    published_at: '2026-05-12T13:00:00.000Z',
  },
  {
    id: 'ep-s2e01',
    title: 'Buyer Agreements: Having the Compensation Conversation',
    description:
      'How to explain buyer agreements and how you are paid, clearly and early, so buyers see your value before the first showing.',
    thumbnail: '/images/podcast/ep-s2e01.svg',
    season: 2,
    episode: 1,
    duration: '36:22',
    spotify_url: 'https://open.spotify.com/episode/3nGtK8wZr6YbVq2LmPxA9d',
    published_at: '2026-02-10T13:00:00.000Z',
  },
  {
    id: 'ep-s1e03',
    title: 'Time Blocking for Busy Agents',
    description:
      'Protect your lead generation hours, batch your admin work and still make it to dinner. A practical look at the weekly schedule of a 40-deal agent.',
    thumbnail: '/images/podcast/ep-s1e03.svg',
    season: 1,
    episode: 3,
    duration: '33:47',
    spotify_url: 'https://open.spotify.com/episode/6yRkP2sJd8QwLmN4vBc7Ht',
    published_at: '2025-10-14T13:00:00.000Z',
  },
  {
    id: 'ep-s1e02',
    title: 'Open Houses That Actually Produce Clients',
    description:
      "Neighbourhood invitations, sign-in systems and the follow-up plan that turned one agent's Sunday open houses into half of her business.",
    thumbnail: '/images/podcast/ep-s1e02.svg',
    season: 1,
    episode: 2,
    duration: '40:12',
    spotify_url: 'https://open.spotify.com/episode/2fHx9LqT5mWc3ZpR7sKd1V',
    published_at: '2025-07-08T13:00:00.000Z',
  },
  {
    id: 'ep-s1e01',
    title: 'From Loan Officer to Coach: Our Story',
    description:
      'Michael Reyes on 16 years in mortgage lending, the agents who built lasting careers, and why he started a coaching platform you can carry in your pocket.',
    thumbnail: '/images/podcast/ep-s1e01.svg',
    season: 1,
    episode: 1,
    duration: '29:55',
    spotify_url: 'https://open.spotify.com/episode/5aQm8TzV1rYk4NwC6hJp2X',
    published_at: '2025-04-15T13:00:00.000Z',
  },
];

const download = (id: string) => `downloads/${id}.pdf`;

export const DEMO_RESOURCES: DemoResource[] = [
  {
    id: 'tip-five-calls',
    title: 'Daily Tip: Five Calls Before Coffee',
    description: 'Make five sphere calls before you open your email. Fifty conversations a fortnight is how referral businesses are built.',
    resource_type: 'daily_tip',
    tier_required: 'free',
    download_file: null,
  },
  {
    id: 'tip-price-reduction',
    title: 'Daily Tip: Talking About a Price Reduction',
    description: 'Lead with showing feedback and days-on-market data, then let the seller choose between price, condition and patience.',
    resource_type: 'daily_tip',
    tier_required: 'free',
    download_file: download('tip-price-reduction'),
  },
  {
    id: 'ebook-first-year',
    title: 'The First-Year Agent Survival Guide',
    description: 'A 40-page guide to budgeting, lead generation and habits that carry new agents through their first twelve months.',
    resource_type: 'ebook',
    tier_required: 'free',
    download_file: download('ebook-first-year'),
  },
  {
    id: 'ebook-listing-playbook',
    title: 'The Listing Appointment Playbook',
    description: 'Pre-listing package, pricing conversation and marketing plan templates, with the scripts our top coaches use.',
    resource_type: 'ebook',
    tier_required: 'bronze',
    download_file: download('ebook-listing-playbook'),
  },
  {
    id: 'workbook-business-plan',
    title: 'Annual Business Plan Workbook',
    description: 'Fill-in worksheets that turn your income goal into monthly targets, a marketing budget and a weekly activity tracker.',
    resource_type: 'workbook',
    tier_required: 'bronze',
    download_file: download('workbook-business-plan'),
  },
  {
    id: 'workbook-buyer-consultation',
    title: 'Buyer Consultation Workbook',
    description: 'A questionnaire, a needs-and-wants worksheet and a buyer agreement explainer to use in every consultation.',
    resource_type: 'workbook',
    tier_required: 'silver',
    download_file: download('workbook-buyer-consultation'),
  },
  {
    id: 'article-appraisal-gaps',
    title: 'Article: Navigating Appraisal Gaps',
    description: 'What happens when the appraisal comes in low, and how listing and buyer agents can keep the deal alive.',
    resource_type: 'article',
    tier_required: 'free',
    download_file: download('article-appraisal-gaps'),
  },
  {
    id: 'article-expired-listings',
    title: 'Article: Why Listings Expire and How to Win Them',
    description: 'The three reasons homes fail to sell and a respectful approach to sellers whose listing just expired.',
    resource_type: 'article',
    tier_required: 'bronze',
    download_file: null,
  },
  {
    id: 'market-report-q3-2026',
    title: 'Market Report: Q3 2026 National Housing Snapshot',
    description: 'Inventory, days on market, price reductions and mortgage rates for the third quarter, with talking points for clients.',
    resource_type: 'market_report',
    tier_required: 'silver',
    download_file: download('market-report-q3-2026'),
  },
  {
    id: 'market-report-luxury-2026',
    title: 'Market Report: Luxury Segment Outlook 2026',
    description: 'Sales above one million dollars by region, cash-buyer share and the amenities luxury buyers pay for.',
    resource_type: 'market_report',
    tier_required: 'gold',
    download_file: download('market-report-luxury-2026'),
  },
  {
    id: 'ebook-team-scripts',
    title: 'Team Leader Scripts and Systems',
    description: 'Recruiting calls, agent onboarding checklists and weekly accountability meeting agendas for team leaders.',
    resource_type: 'ebook',
    tier_required: 'gold',
    download_file: download('ebook-team-scripts'),
  },
  {
    id: 'workbook-social-calendar',
    title: '90-Day Social Media Content Calendar',
    description: 'Ninety days of post ideas, captions and short video prompts for agents, organised by week.',
    resource_type: 'workbook',
    tier_required: 'silver',
    download_file: null,
  },
];

export const DEMO_POSTS: DemoPost[] = [
  {
    id: 'post-expired-scripts',
    user_name: 'Jessica Tran',
    title: 'Expired listing scripts that actually work?',
    content:
      'I have been calling expireds for three weeks and get hung up on a lot. Has anyone had luck leading with a market update instead of asking for the appointment right away? Would love to hear what you say in the first ten seconds.',
    created_at: '2026-11-18T15:24:00.000Z',
    replies: [
      {
        user_name: 'Brandon Mitchell',
        body: 'I open with "I saw your home came off the market and wanted to share what sold nearby this month." Fewer hang-ups, more conversations.',
        created_at: '2026-11-18T16:02:00.000Z',
      },
      {
        user_name: 'Laura Chen',
        body: 'The market update works. I also ask one question before any pitch: what would you do differently if you listed again?',
        created_at: '2026-11-18T18:40:00.000Z',
      },
      {
        user_name: 'Raj Patel',
        body: 'Call between 4 and 6 pm. My contact rate doubled compared with mornings.',
        created_at: '2026-11-19T09:15:00.000Z',
      },
    ],
  },
  {
    id: 'post-first-closing',
    user_name: 'Brandon Mitchell',
    title: 'Closed my first deal this week!',
    content:
      'Five months in and my first buyers got their keys on Friday. The Mortgage Basics course saved this one when the appraisal came in low. Thank you to everyone here who answered my questions at midnight.',
    created_at: '2026-11-15T19:02:00.000Z',
    replies: [
      {
        user_name: 'Monique Harris',
        body: 'Congratulations! Frame the first commission check, you will want to remember this week.',
        created_at: '2026-11-15T20:11:00.000Z',
      },
      {
        user_name: 'Derek Johnson',
        body: 'Huge! Ask those buyers for a short video review while they are still excited.',
        created_at: '2026-11-16T08:30:00.000Z',
      },
    ],
  },
  {
    id: 'post-open-house-signin',
    user_name: 'Alicia Romero',
    title: 'Open house sign-in: paper or tablet?',
    content:
      'I switched to a tablet sign-in and my visitor count dropped. Going back to paper with a QR code option next weekend. What is working for you, and how fast do you follow up?',
    created_at: '2026-11-12T14:40:00.000Z',
    replies: [
      {
        user_name: 'Jessica Tran',
        body: 'Paper plus QR here too. I text everyone within the hour with the price sheet.',
        created_at: '2026-11-12T16:05:00.000Z',
      },
      {
        user_name: 'Natalie Brooks',
        body: 'Tablet with only two fields (name and phone) brought my numbers back up.',
        created_at: '2026-11-13T10:20:00.000Z',
      },
    ],
  },
  {
    id: 'post-buyer-agreements',
    user_name: "Kevin O'Donnell",
    title: 'How are you explaining buyer agreements?',
    content:
      'Some first-time buyers are surprised when I bring up the written agreement before showings. I now cover it at the consultation with a one-page explainer and it has gone much better. Curious how others handle it.',
    created_at: '2026-11-08T17:15:00.000Z',
    replies: [
      {
        user_name: 'Alicia Romero',
        body: 'I show the agreement next to a list of what I do for them. It reads as a plan, not a contract.',
        created_at: '2026-11-08T19:00:00.000Z',
      },
      {
        user_name: "Kevin O'Donnell",
        body: 'Following up: the one-page explainer is in the resources library if anyone wants a starting point.',
        created_at: '2026-11-09T11:45:00.000Z',
      },
    ],
  },
  {
    id: 'post-time-blocking',
    user_name: 'Monique Harris',
    title: 'Time blocking with kids at home',
    content:
      'My lead generation block is 8:30 to 10:30 after school drop-off, and I keep showings to afternoons. It took a month to stick. Anyone else juggling family and a full pipeline?',
    created_at: '2026-11-03T12:05:00.000Z',
    replies: [
      {
        user_name: 'Laura Chen',
        body: 'Same block here, and my phone goes on do-not-disturb for everything else. It took two weeks for clients to adjust.',
        created_at: '2026-11-03T14:30:00.000Z',
      },
      {
        user_name: 'Brandon Mitchell',
        body: 'Saving this. I keep trying to do lead generation at night and it never sticks.',
        created_at: '2026-11-04T07:55:00.000Z',
      },
    ],
  },
  {
    id: 'post-investor-duplex',
    user_name: 'Raj Patel',
    title: 'Ran the numbers on my first investor duplex',
    content:
      'Used the cap rate worksheet from the investor course and my client passed on a listing that looked great until we added real vacancy and repairs. He trusts me a lot more now. Investors really do want the numbers first.',
    created_at: '2026-10-28T16:50:00.000Z',
    replies: [
      {
        user_name: 'Natalie Brooks',
        body: 'Investors remember the agent who talked them out of a bad deal. Great work.',
        created_at: '2026-10-28T18:20:00.000Z',
      },
    ],
  },
  {
    id: 'post-price-reduction',
    user_name: 'Laura Chen',
    title: 'Price reduction conversation went better than expected',
    content:
      'I brought showing feedback and the last 30 days of comparable sales and let the sellers pick the new price. They reduced by 4% and we had two offers within ten days.',
    created_at: '2026-10-21T13:30:00.000Z',
    replies: [
      {
        user_name: 'Jessica Tran',
        body: 'Letting the sellers pick the price from the data is brilliant. Stealing this.',
        created_at: '2026-10-21T15:10:00.000Z',
      },
      {
        user_name: 'Raj Patel',
        body: 'How many comparables did you bring? I find more than five overwhelms people.',
        created_at: '2026-10-22T09:00:00.000Z',
      },
    ],
  },
  {
    id: 'post-social-video',
    user_name: 'Derek Johnson',
    title: 'Short videos: what gets views in your market?',
    content:
      'My neighbourhood coffee shop tours get ten times the views of my listing videos. Thinking of a weekly local series. What topics do people in your area respond to?',
    created_at: '2026-10-14T18:45:00.000Z',
    replies: [
      {
        user_name: 'Alicia Romero',
        body: 'School pickup traffic tips got me more views than any listing I have posted.',
        created_at: '2026-10-14T20:30:00.000Z',
      },
      {
        user_name: 'Monique Harris',
        body: 'Weekly local series all the way. Consistency beats production quality.',
        created_at: '2026-10-15T12:00:00.000Z',
      },
    ],
  },
  {
    id: 'post-team-split',
    user_name: 'Natalie Brooks',
    title: "First buyer's agent on my team: what split?",
    content:
      "I am about to bring on my first buyer's agent and provide most of the leads. Thinking 50/50 on team leads and 70/30 on their own. Team leaders, what has worked for you long term?",
    created_at: '2026-10-06T15:10:00.000Z',
    replies: [
      {
        user_name: "Kevin O'Donnell",
        body: '50/50 on team leads is common. Put the split and lead rules in writing from day one.',
        created_at: '2026-10-06T17:40:00.000Z',
      },
      {
        user_name: 'Derek Johnson',
        body: 'Whatever you choose, review it after six months. Expectations change on both sides.',
        created_at: '2026-10-07T10:25:00.000Z',
      },
    ],
  },
];

/**
 * A few states' continuing-education requirements for the CE ledger, written from the commissions'
 * public pages as they read in 2026: each is marked for staff to check with the commission before
 * members rely on it (the admin's 'Continuing education requirements' shows the mark).
 */
export const DEMO_CE_REQUIREMENTS: {
  state: 'TX' | 'CA' | 'FL' | 'NY';
  licenceType: 'salesperson' | 'broker';
  hoursPerCycle: number;
  cycleMonths: number;
  topics: { topic: string; minHours: number }[];
  note: string;
  commissionAddress: string;
}[] = [
  {
    state: 'TX',
    licenceType: 'salesperson',
    hoursPerCycle: 18,
    cycleMonths: 24,
    topics: [
      { topic: 'legal_update', minHours: 8 },
      { topic: 'contracts', minHours: 3 },
    ],
    note: 'Legal Update I and II (4 hours each) and 3 hours of contracts; the rest elective.',
    commissionAddress: 'Texas Real Estate Commission, 1700 N. Congress Ave., Austin, TX 78701',
  },
  {
    state: 'TX',
    licenceType: 'broker',
    hoursPerCycle: 18,
    cycleMonths: 24,
    topics: [
      { topic: 'legal_update', minHours: 8 },
      { topic: 'contracts', minHours: 3 },
    ],
    note: 'A broker who sponsors agents also takes the 6-hour broker responsibility course.',
    commissionAddress: 'Texas Real Estate Commission, 1700 N. Congress Ave., Austin, TX 78701',
  },
  {
    state: 'CA',
    licenceType: 'salesperson',
    hoursPerCycle: 45,
    cycleMonths: 48,
    topics: [
      { topic: 'ethics', minHours: 3 },
      { topic: 'agency', minHours: 3 },
      { topic: 'fair_housing', minHours: 3 },
      { topic: 'risk_management', minHours: 3 },
    ],
    note: 'Also trust fund handling and management and supervision, 3 hours each, and 2 hours of implicit bias training.',
    commissionAddress: 'California Department of Real Estate, 651 Bannon Street, Sacramento, CA 95811',
  },
  {
    state: 'FL',
    licenceType: 'salesperson',
    hoursPerCycle: 14,
    cycleMonths: 24,
    topics: [
      { topic: 'legal_update', minHours: 3 },
      { topic: 'ethics', minHours: 3 },
    ],
    note: 'Core law (3 hours), ethics and business practices (3 hours) and 8 hours of specialty education.',
    commissionAddress: 'Florida Real Estate Commission, 400 W. Robinson St., Orlando, FL 32801',
  },
  {
    state: 'NY',
    licenceType: 'salesperson',
    hoursPerCycle: 22.5,
    cycleMonths: 24,
    topics: [
      { topic: 'fair_housing', minHours: 3 },
      { topic: 'agency', minHours: 2 },
      { topic: 'legal_update', minHours: 2.5 },
    ],
    note: 'Includes 2 hours of implicit bias training and 1 hour of recent legal matters.',
    commissionAddress: 'New York Department of State, Division of Licensing Services, One Commerce Plaza, Albany, NY 12231',
  },
];
