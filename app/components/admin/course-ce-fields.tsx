import type { CourseCeView } from '../../../common/licence.contract.ts';
import { CE_TOPIC_LABEL, CE_TOPICS } from '../../../common/licence-terms.ts';
import { Input, Select, Textarea } from '../ui/field.tsx';

// A course's continuing education in the course editor (issue 33, part 4): its hours and topic, and
// the states that approve it, one a line as 'TX: approval number' (the way commissions list them).

const TOPIC_OPTIONS = [
  { value: '', label: 'Not continuing education' },
  ...CE_TOPICS.map((topic) => ({ value: topic, label: CE_TOPIC_LABEL[topic] })),
];

/** The approvals' lines as the contract reads them; a line without a colon is kept whole as the state, for the contract to refuse. */
export function approvalsFrom(text: string): { state: string; approval_number: string }[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0
        ? { state: line.toUpperCase(), approval_number: '' }
        : { state: line.slice(0, colon).trim().toUpperCase(), approval_number: line.slice(colon + 1).trim() };
    });
}

export function CourseCeFields({ ce, errors }: { ce: CourseCeView; errors: Record<string, string> }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Input label="CE hours" name="ce_hours" type="number" min={0.1} step={0.1} defaultValue={ce.ce_hours ?? ''} error={errors.ce_hours} />
      <Select label="CE topic" name="ce_topic" defaultValue={ce.ce_topic ?? ''} options={TOPIC_OPTIONS} error={errors.ce_topic} />
      <div className="sm:col-span-2">
        <Textarea
          label="Approved in (one state a line, as TX: approval number)"
          name="ce_approvals"
          rows={4}
          defaultValue={ce.ce_approvals.map((approval) => `${approval.state}: ${approval.approval_number}`).join('\n')}
          error={errors.ce_approvals}
        />
      </div>
    </div>
  );
}
