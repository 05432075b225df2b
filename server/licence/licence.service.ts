import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { badRequest, conflict, forbidden, notFound } from '../../common/errors.ts';
import {
  CE_ENTRY_NOT_FOUND,
  CE_NEEDS_CERTIFICATE,
  CE_NEEDS_HOURS,
  COMPLETED_IN_FUTURE,
  CE_TOPIC_LABEL,
  CERTIFICATE_TYPES_ACCEPTED,
  isOnTrack,
  LICENCE_NOT_FOUND,
  LICENCE_TAKEN,
  NO_LICENCE_IN_STATE,
  REQUIRED_TOPIC_CHOICES,
  REQUIREMENT_NOT_FOUND,
  roundHours,
  TOO_MANY_LICENCES,
  TOO_MANY_OUTSIDE_ENTRIES,
  US_STATES,
  type AgentLicenceStanding,
  type CeEntryView,
  type CourseCeView,
  type LicenceService,
  type LicenceStanding,
  type RequirementView,
} from '../../common/licence.contract.ts';
import { LICENCES } from '../../common/limits.ts';
import {
  mayKeepCeRequirements,
  mayManageLicence,
  mayOpenCeCertificate,
  requireMember,
  requireStaff,
  requireStaffArea,
} from '../../common/policies.ts';
import { DEFAULT_TIME_ZONE, localDateOf } from '../../common/time-zones.ts';
import type { Viewer } from '../../common/viewer.ts';
import { checkUpload, displayName } from '../files/upload-checks.ts';
import type { FileStorage } from '../files/storage.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { LearningService } from '../../common/learning.contract.ts';
import { decodeCursor, encodeCursor } from '../lists/keyset.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import type { CeEntryRow, LicenceRow, RequirementRow } from './licence.repository.ts';

// The CE ledger's rules (issue 33, part 4): a licence's standing in its cycle, outside CE with its
// certificate file, a course's credit in the states that approve it, and each state's requirement.

const EntryCursor = z.tuple([z.iso.date(), z.uuid()]);
const CERTIFICATE_EXTENSIONS = ['pdf', 'jpg', 'jpeg', 'png'];
const DAY_MS = 24 * 60 * 60 * 1000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

function requirementView(row: RequirementRow): RequirementView {
  return {
    state: row.state,
    state_name: US_STATES[row.state],
    licence_type: row.licenceType,
    hours_per_cycle: row.hoursPerCycle,
    cycle_months: row.cycleMonths,
    topics: row.topics
      .filter((each): each is { topic: (typeof REQUIRED_TOPIC_CHOICES)[number]; minHours: number } =>
        (REQUIRED_TOPIC_CHOICES as readonly string[]).includes(each.topic),
      )
      .map((each) => ({ topic: each.topic, label: CE_TOPIC_LABEL[each.topic], min_hours: each.minHours })),
    note: row.note,
    commission_address: row.commissionAddress,
    check_with_commission: row.checkWithCommission,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Where a licence stands on `today` (the member's date): hours done and missing, in total and per required topic. */
function standingOf(
  licence: LicenceRow,
  requirement: RequirementRow | null,
  cycleStartsOn: string,
  hoursByTopic: Map<string, number>,
  today: string,
): LicenceStanding {
  const view = requirement ? requirementView(requirement) : null;
  const done = roundHours([...hoursByTopic.values()].reduce((sum, hours) => sum + hours, 0));
  const topics = (view?.topics ?? []).map((each) => {
    const topicDone = roundHours(hoursByTopic.get(each.topic) ?? 0);
    return {
      topic: each.topic,
      label: each.label,
      required: each.min_hours,
      done: topicDone,
      missing: roundHours(Math.max(0, each.min_hours - topicDone)),
    };
  });
  const required = view?.hours_per_cycle ?? null;
  // The least more hours that meet both the total and every topic's minimum.
  const missing = roundHours(
    Math.max(
      0,
      (required ?? 0) - done,
      topics.reduce((sum, each) => sum + each.missing, 0),
    ),
  );
  const cycleDays = Math.max(1, daysBetween(cycleStartsOn, licence.renewsOn));
  return {
    id: licence.id,
    state: licence.state,
    state_name: US_STATES[licence.state],
    licence_type: licence.licenceType,
    licence_number: licence.licenceNumber,
    renews_on: licence.renewsOn,
    cycle_starts_on: cycleStartsOn,
    days_to_renewal: daysBetween(today, licence.renewsOn),
    requirement: view,
    hours_done: done,
    hours_required: required,
    hours_missing: missing,
    topics,
    on_track: isOnTrack({ hoursDone: done, hoursRequired: required, hoursMissing: missing }, daysBetween(cycleStartsOn, today) / cycleDays),
  };
}

/** The standings of every licence of these members, each member's in their own zone. */
export async function standingsOf(repositories: Repositories, members: { id: string; timeZone: string | null }[]) {
  const rows = await repositories.licence.licencesOf(members.map((member) => member.id));
  const sums = await repositories.licence.hoursInCycle(rows.map((row) => row.licence.id));
  const byLicence = new Map<string, Map<string, number>>();
  for (const sum of sums) {
    const topics = byLicence.get(sum.licenceId) ?? new Map<string, number>();
    topics.set(sum.topic, sum.hours);
    byLicence.set(sum.licenceId, topics);
  }
  const zones = new Map(members.map((member) => [member.id, member.timeZone ?? DEFAULT_TIME_ZONE]));
  const now = new Date();
  const standings = new Map<string, LicenceStanding[]>(members.map((member) => [member.id, []]));
  for (const row of rows) {
    const today = localDateOf(now, zones.get(row.licence.memberId) ?? DEFAULT_TIME_ZONE);
    standings
      .get(row.licence.memberId)
      ?.push(standingOf(row.licence, row.requirement, row.cycleStartsOn, byLicence.get(row.licence.id) ?? new Map(), today));
  }
  return standings;
}

function entryView(row: CeEntryRow): CeEntryView {
  return {
    id: row.id,
    state: row.state,
    source: row.source,
    course_name: row.courseName,
    provider: row.provider,
    hours: row.hours,
    topic: row.topic,
    topic_label: CE_TOPIC_LABEL[row.topic],
    completed_on: row.completedOn,
    approval_number: row.approvalNumber,
    certificate_code: row.certificateCode,
    certificate_file:
      row.certificateKey && row.certificateFilename
        ? { filename: row.certificateFilename, url: `/api/licence/entries/${row.id}/certificate` }
        : null,
  };
}

/**
 * A completed course's credit: an entry in each state that approves it, with its certificate, at its
 * hours and topic as they are now (a later change of the course does not rewrite what was earned).
 */
export async function creditCourseCompletion(
  repositories: Repositories,
  member: { id: string },
  certificate: { id: string; courseId: string; courseTitle: string; issuedOn: string },
  provider: string,
): Promise<void> {
  const ce = await repositories.licence.courseCe(certificate.courseId);
  if (!ce || ce.ceHours === null || ce.ceTopic === null || ce.approvals.length === 0) return;
  await repositories.licence.creditCourse(
    ce.approvals.map((approval) => ({
      memberId: member.id,
      state: approval.state,
      source: 'course' as const,
      courseId: certificate.courseId,
      certificateId: certificate.id,
      provider,
      courseName: certificate.courseTitle,
      hours: ce.ceHours!,
      topic: ce.ceTopic!,
      completedOn: certificate.issuedOn,
      approvalNumber: approval.approvalNumber,
    })),
  );
}

/** A requirement saved or removed, in the activity log (by whom, which state and licence type, and what it is now). */
function auditRequirement(
  tx: Repositories,
  viewer: Viewer,
  key: { state: string; licence_type: string },
  change: 'save' | 'remove',
  newValue: unknown,
) {
  return tx.audit.record({
    actorEmail: requireStaff(viewer).email,
    action: `ce_requirement.${change}`,
    target: `${key.state}:${key.licence_type}`,
    oldValue: null,
    newValue,
  });
}

export interface ServerLicenceService extends LicenceService {
  /** A certificate of CE elsewhere, for its member or an owner. */
  certificateFile(viewer: Viewer, entryId: string): Promise<{ stream: Readable; contentType: string; filename: string }>;
  /** What a broker sees of their agents' ledgers: per licence, whether each is on track. */
  agentStandings(agents: { id: string; timeZone: string | null }[]): Promise<Map<string, AgentLicenceStanding[]>>;
  /** 'Download for the commission': the cycle's transcript as a PDF. */
  transcript(viewer: Viewer, licenceId: string): Promise<{ filename: string; pdf: Uint8Array }>;
  /** And the cycle's certificates in one zip, written as they are read. */
  certificates(viewer: Viewer, licenceId: string): Promise<{ filename: string; zip: AsyncGenerator<Uint8Array> }>;
}

export function createLicenceService(deps: {
  data: DataAccess;
  storage: FileStorage;
  /** Absolute links: the verification link of each certificate in the transcript. */
  mailer: Pick<Mailer, 'link'>;
  /** The site's own certificates, rendered for the zip as their member downloads them. */
  learning: Pick<LearningService, 'certificatePdf'>;
  /** Counts each member's transcripts and zips: each reads a whole cycle. */
  limiter: Pick<AttemptLimiter, 'check'>;
}): ServerLicenceService {
  const { data, storage } = deps;

  async function ownLicence(viewer: Viewer, id: string): Promise<LicenceRow> {
    requireMember(viewer);
    const licence = await data.licence.findLicence(id);
    // Another member's licence is not found, rather than forbidden: its id tells nothing.
    if (!licence || !mayManageLicence(viewer, licence)) throw notFound(LICENCE_NOT_FOUND);
    return licence;
  }

  async function standingFor(viewer: Viewer, id: string): Promise<LicenceStanding> {
    const member = requireMember(viewer);
    const standing = (await standingsOf(data, [member])).get(member.id)?.find((each) => each.id === id);
    if (!standing) throw notFound(LICENCE_NOT_FOUND);
    return standing;
  }

  /** A licence's standing and its cycle's entries, oldest first, read page after page (a download, counted). */
  async function cycleOf(viewer: Viewer, licenceId: string) {
    const licence = await ownLicence(viewer, licenceId);
    await deps.limiter.check('ce-download:member', licence.memberId, LICENCES.downloads);
    const standing = await standingFor(viewer, licenceId);
    async function* entries(): AsyncGenerator<CeEntryRow> {
      let after: { completedOn: string; id: string } | undefined;
      for (;;) {
        const rows = await data.licence.cycleEntries(licence, standing.cycle_starts_on, LICENCES.entriesPerPage, after);
        yield* rows;
        const last = rows.at(-1);
        if (!last || rows.length < LICENCES.entriesPerPage) return;
        after = { completedOn: last.completedOn, id: last.id };
      }
    }
    return { standing, entries };
  }

  async function courseCeView(courseId: string): Promise<CourseCeView> {
    const ce = await data.licence.courseCe(courseId);
    if (!ce) throw notFound('Course not found');
    return {
      ce_hours: ce.ceHours,
      ce_topic: ce.ceTopic,
      ce_approvals: ce.approvals.map((approval) => ({
        state: approval.state,
        state_name: US_STATES[approval.state],
        approval_number: approval.approvalNumber,
      })),
    };
  }

  function refuseTaken(error: unknown): never {
    if (data.isDuplicate(error)) throw conflict(LICENCE_TAKEN);
    throw error;
  }

  return {
    async ledger(viewer) {
      const member = requireMember(viewer);
      return (await standingsOf(data, [member])).get(member.id) ?? [];
    },

    async entries(viewer, state, after) {
      const member = requireMember(viewer);
      const from = after ? decodeCursor(after, EntryCursor) : undefined;
      const rows = await data.licence.entries(member.id, state, LICENCES.entriesPerPage + 1, from && { completedOn: from[0], id: from[1] });
      const items = rows.slice(0, LICENCES.entriesPerPage);
      const last = items.at(-1);
      return {
        items: items.map(entryView),
        next_cursor: rows.length > LICENCES.entriesPerPage && last ? encodeCursor([last.completedOn, last.id]) : null,
      };
    },

    async addLicence(viewer, input) {
      const member = requireMember(viewer);
      if ((await data.licence.countLicences(member.id)) >= LICENCES.maxPerMember) throw conflict(TOO_MANY_LICENCES);
      const id = await data.licence
        .insertLicence({
          memberId: member.id,
          state: input.state,
          licenceType: input.licence_type,
          licenceNumber: input.licence_number,
          renewsOn: input.renews_on,
        })
        .catch(refuseTaken);
      return standingFor(viewer, id);
    },

    async updateLicence(viewer, id, input) {
      await ownLicence(viewer, id);
      await data.licence
        .updateLicence(id, {
          state: input.state,
          licenceType: input.licence_type,
          licenceNumber: input.licence_number,
          renewsOn: input.renews_on,
        })
        .catch(refuseTaken);
      return standingFor(viewer, id);
    },

    async removeLicence(viewer, id) {
      await ownLicence(viewer, id);
      await data.licence.removeLicence(id);
    },

    async addOutsideEntry(viewer, input, certificate) {
      const member = requireMember(viewer);
      if (input.completed_on > localDateOf(new Date(), member.timeZone ?? DEFAULT_TIME_ZONE)) {
        throw badRequest(COMPLETED_IN_FUTURE, 'completed_on');
      }
      const filename = displayName(certificate.filename);
      const extension = path.extname(filename).slice(1).toLowerCase();
      if (!CERTIFICATE_EXTENSIONS.includes(extension)) throw badRequest(CERTIFICATE_TYPES_ACCEPTED, 'certificate');
      if (certificate.content.length > LICENCES.certificateMaxBytes) {
        throw badRequest(`The certificate may be at most ${LICENCES.certificateMaxBytes / 1024 / 1024} MB.`, 'certificate');
      }
      // The extension and the content must agree (a renamed file is refused).
      const { type } = await checkUpload(filename, certificate.content);
      const key = `ce-certificates/${randomBytes(16).toString('hex')}.${extension === 'jpeg' ? 'jpg' : extension}`;
      await storage.put(key, certificate.content, type.contentType, { attachment: filename });
      const id = await data
        .transaction(async (tx) => {
          // The member's caps are counted under their row's lock: two uploads at once cannot both pass.
          await tx.licence.lockMember(member.id);
          const licences = await tx.licence.licencesOf([member.id]);
          if (!licences.some((row) => row.licence.state === input.state)) throw badRequest(NO_LICENCE_IN_STATE, 'state');
          const kept = await tx.licence.outsideCertificatesOf(member.id);
          if (kept.count >= LICENCES.maxOutsideEntries || kept.bytes + certificate.content.length > LICENCES.maxCertificateBytesInAll) {
            throw conflict(TOO_MANY_OUTSIDE_ENTRIES);
          }
          return tx.licence.insertEntry({
            memberId: member.id,
            state: input.state,
            source: 'outside',
            provider: input.provider,
            courseName: input.course_name,
            hours: input.hours,
            topic: input.topic,
            completedOn: input.completed_on,
            certificateKey: key,
            certificateFilename: filename,
            certificateContentType: type.contentType,
            certificateBytes: certificate.content.length,
          });
        })
        .catch(async (error: unknown) => {
          await storage.delete(key).catch(() => {});
          throw error;
        });
      return entryView((await data.licence.findEntry(id))!);
    },

    async removeOutsideEntry(viewer, id) {
      const member = requireMember(viewer);
      const entry = await data.licence.findEntry(id);
      if (!entry || entry.memberId !== member.id) throw notFound(CE_ENTRY_NOT_FOUND);
      // What the site recorded of its own courses stays: the certificate is the record.
      if (entry.source !== 'outside') throw forbidden('A course completed here stays in your ledger with its certificate.');
      await data.licence.removeEntry(id);
      if (entry.certificateKey) await storage.delete(entry.certificateKey).catch(() => {});
    },

    async certificateFile(viewer, entryId) {
      const entry = await data.licence.findEntry(entryId);
      if (!entry || !entry.certificateKey || !mayOpenCeCertificate(viewer, entry)) {
        if (!viewer.member && !viewer.staff) requireMember(viewer);
        throw notFound(CE_ENTRY_NOT_FOUND);
      }
      const stream = await storage.get(entry.certificateKey);
      if (!stream) throw notFound('File not found.');
      // An owner opening a member's private document is in the activity log.
      if (viewer.member?.id !== entry.memberId) {
        await data.audit.record({
          actorEmail: requireStaff(viewer).email,
          action: 'member.ce_certificate.open',
          target: entry.memberId,
          oldValue: null,
          newValue: { entry: entry.id, filename: entry.certificateFilename },
          subjectMemberId: entry.memberId,
        });
      }
      return {
        stream,
        contentType: entry.certificateContentType ?? 'application/octet-stream',
        filename: entry.certificateFilename ?? 'certificate',
      };
    },

    async agentStandings(agents) {
      const standings = await standingsOf(data, agents);
      return new Map(
        [...standings].map(([memberId, list]) => [
          memberId,
          list.map(({ state, licence_type, requirement, hours_missing, on_track }) => ({
            state,
            licence_type,
            known: requirement !== null,
            hours_missing,
            on_track,
          })),
        ]),
      );
    },

    async transcript(viewer, licenceId) {
      const member = requireMember(viewer);
      const { standing, entries } = await cycleOf(viewer, licenceId);
      // pdf-lib is loaded with the first transcript asked for, not at every start.
      const { renderTranscriptPdf } = await import('./ce-transcript.ts');
      const pdf = await renderTranscriptPdf({
        memberName: member.name,
        memberEmail: member.email,
        standing,
        entries: entries(),
        verifyUrl: (code) => deps.mailer.link(`/certificates/${code}`),
        generatedOn: localDateOf(new Date(), member.timeZone ?? DEFAULT_TIME_ZONE),
      });
      return { filename: `CE transcript ${standing.state} ${standing.renews_on}.pdf`, pdf };
    },

    async certificates(viewer, licenceId) {
      const { standing, entries } = await cycleOf(viewer, licenceId);
      const { zipEntryName, zipFiles } = await import('./ce-transcript.ts');
      async function* files() {
        let index = 0;
        for await (const entry of entries()) {
          index += 1;
          if (entry.certificateCode) {
            const { pdf } = await deps.learning.certificatePdf(viewer, entry.certificateCode);
            yield { name: zipEntryName(index, entry, 'pdf'), bytes: pdf };
          } else if (entry.certificateKey) {
            const stream = await storage.get(entry.certificateKey);
            if (!stream) continue;
            const chunks: Buffer[] = [];
            for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
            const bytes = Buffer.concat(chunks);
            yield { name: zipEntryName(index, entry, path.extname(entry.certificateKey).slice(1) || 'pdf'), bytes };
          }
        }
      }
      return { filename: `CE certificates ${standing.state} ${standing.renews_on}.zip`, zip: zipFiles(files()) };
    },

    async courseCe(viewer, courseId) {
      requireStaffArea(viewer, 'content');
      return courseCeView(courseId);
    },

    async saveCourseCe(viewer, courseId, input) {
      const staff = requireStaffArea(viewer, 'content');
      const course = await data.courses.findById(courseId);
      if (!course) throw notFound('Course not found');
      if (input.ce_hours !== null && !course.certificate) throw badRequest(CE_NEEDS_CERTIFICATE, 'ce_hours');
      if (input.ce_approvals.length > 0 && (input.ce_hours === null || input.ce_topic === null))
        throw badRequest(CE_NEEDS_HOURS, 'ce_hours');
      const before = await courseCeView(courseId);
      await data.transaction(async (tx) => {
        await tx.courses.updateCourse(courseId, { ceHours: input.ce_hours, ceTopic: input.ce_topic });
        await tx.licence.replaceApprovals(
          courseId,
          input.ce_approvals.map((approval) => ({ state: approval.state, approvalNumber: approval.approval_number })),
        );
        await tx.audit.record({ actorEmail: staff.email, action: 'course.ce', target: courseId, oldValue: before, newValue: input });
      });
      return courseCeView(courseId);
    },

    async requirements(viewer) {
      requireStaff(viewer);
      return (await data.licence.requirements(2 * Object.keys(US_STATES).length)).map(requirementView);
    },

    async saveRequirement(viewer, key, input) {
      requireStaff(viewer);
      if (!mayKeepCeRequirements(viewer)) throw forbidden();
      const row = await data.transaction(async (tx) => {
        const saved = await tx.licence.saveRequirement({
          state: key.state,
          licenceType: key.licence_type,
          hoursPerCycle: input.hours_per_cycle,
          cycleMonths: input.cycle_months,
          topics: input.topics.map((each) => ({ topic: each.topic, minHours: each.min_hours })),
          note: input.note,
          commissionAddress: input.commission_address,
          checkWithCommission: input.check_with_commission,
        });
        await auditRequirement(tx, viewer, key, 'save', input);
        return saved;
      });
      return requirementView(row);
    },

    async removeRequirement(viewer, key) {
      requireStaff(viewer);
      if (!mayKeepCeRequirements(viewer)) throw forbidden();
      const removed = await data.transaction(async (tx) => {
        if (!(await tx.licence.removeRequirement(key.state, key.licence_type))) return false;
        await auditRequirement(tx, viewer, key, 'remove', null);
        return true;
      });
      if (!removed) throw notFound(REQUIREMENT_NOT_FOUND);
    },
  };
}
