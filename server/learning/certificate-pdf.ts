import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { BRAND_NAME } from '../../common/brand.ts';

const DARK_RED = rgb(0.5, 0.11, 0.11);
const GOLD = rgb(0.83, 0.63, 0.09);

/** A one-page landscape certificate: member, course, date and the public verification code. */
export async function renderCertificatePdf(certificate: {
  memberName: string;
  courseTitle: string;
  issuedAt: Date;
  code: string;
  verifyUrl: string;
  /** The score in the course's quizzes, where the course's certificate states one. */
  scorePercent: number | null;
}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Certificate of Completion: ${certificate.courseTitle}`);
  pdf.setAuthor(BRAND_NAME);
  const page = pdf.addPage([792, 612]);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const center = (text: string, y: number, size: number, font = regular, color = rgb(0.1, 0.1, 0.1)) => {
    page.drawText(text, { x: (792 - font.widthOfTextAtSize(text, size)) / 2, y, size, font, color });
  };
  page.drawRectangle({ x: 24, y: 24, width: 744, height: 564, borderColor: DARK_RED, borderWidth: 6 });
  page.drawRectangle({ x: 36, y: 36, width: 720, height: 540, borderColor: GOLD, borderWidth: 2 });
  center(BRAND_NAME, 520, 26, bold, DARK_RED);
  center('Certificate of Completion', 470, 34, bold);
  center('This certifies that', 420, 14);
  center(certificate.memberName, 380, 30, bold, DARK_RED);
  center('has completed every lesson of the course', 340, 14);
  center(certificate.courseTitle, 305, 22, bold);
  const date = certificate.issuedAt.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  center(`Issued ${date}`, 250, 14);
  if (certificate.scorePercent !== null) center(`Quiz score: ${certificate.scorePercent}%`, 225, 14, bold);
  center(`Verification code: ${certificate.code}`, 120, 12, bold, DARK_RED);
  center(`Verify at ${certificate.verifyUrl}`, 100, 10);
  return pdf.save();
}
