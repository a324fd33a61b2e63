import { describe, expect, it } from 'vitest';
import { hasSpeakerNotes } from './speaker-notes.ts';

const notesSlide = (text: string) =>
  `<p:notes><p:cSld><p:spTree>` +
  `<p:sp><p:nvSpPr><p:nvPr><p:ph type="sldNum"/></p:nvPr></p:nvSpPr><a:p><a:r><a:t>3</a:t></a:r></a:p></p:sp>` +
  `<p:sp><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>` +
  `</p:spTree></p:cSld></p:notes>`;

const report = (kept: Record<string, string>, notKept: string[] = []) => ({
  kept: new Map(Object.entries(kept)),
  notKept: new Set(notKept),
});

describe('hasSpeakerNotes', () => {
  it('a PPTX: notes are text beside the slide number, header and date placeholders', () => {
    const name = 'ppt/notesSlides/notesSlide1.xml';
    expect(hasSpeakerNotes('pptx', report({ [name]: notesSlide('Say the revenue') }))).toBe(true);
    expect(hasSpeakerNotes('pptx', report({ [name]: notesSlide(' ') }))).toBe(false);
    expect(hasSpeakerNotes('pptx', report({}))).toBe(false);
  });

  it('a PPTX notes slide too large to read counts as notes, so none are lost', () => {
    const name = 'ppt/notesSlides/notesSlide2.xml';
    expect(hasSpeakerNotes('pptx', report({}, [name]))).toBe(true);
  });

  it('an ODP whose content was not read, and a PPT, count as having notes', () => {
    expect(hasSpeakerNotes('odp', report({}, ['content.xml']))).toBe(true);
    expect(hasSpeakerNotes('ppt', report({}))).toBe(true);
    const odp = (notes: string) =>
      `<draw:page><presentation:notes><draw:frame><text:p>${notes}</text:p></draw:frame></presentation:notes></draw:page>`;
    expect(hasSpeakerNotes('odp', report({ 'content.xml': odp('Mention Q3') }))).toBe(true);
    expect(hasSpeakerNotes('odp', report({ 'content.xml': odp('') }))).toBe(false);
  });
});
