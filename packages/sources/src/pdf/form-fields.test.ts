import { describe, expect, it } from 'vitest';
import { widgetValue } from './form-fields.ts';

const widget = (data: Record<string, unknown>) => widgetValue({ subtype: 'Widget', ...data });

describe('widgetValue', () => {
  it('shows text and choice values', () => {
    expect(widget({ fieldType: 'Tx', fieldValue: 'Jane' })).toBe('Jane');
    expect(widget({ fieldType: 'Tx', fieldValue: '  ' })).toBeUndefined();
    expect(widget({ fieldType: 'Ch', fieldValue: ['Red', 'Blue'] })).toBe('Red, Blue');
    expect(widget({ fieldType: 'Ch', fieldValue: 'Green' })).toBe('Green');
  });

  it('shows the state of checkboxes and radio buttons', () => {
    expect(
      widget({ fieldType: 'Btn', checkBox: true, fieldValue: 'Yes', exportValue: 'Yes' }),
    ).toBe('[x]');
    expect(
      widget({ fieldType: 'Btn', checkBox: true, fieldValue: 'Off', exportValue: 'Yes' }),
    ).toBe('[ ]');
    expect(widget({ fieldType: 'Btn', radioButton: true, fieldValue: 'B', buttonValue: 'B' })).toBe(
      '(x)',
    );
    expect(widget({ fieldType: 'Btn', radioButton: true, fieldValue: 'A', buttonValue: 'B' })).toBe(
      '( )',
    );
  });

  it('hides hidden and password fields, push buttons and other annotations', () => {
    expect(widget({ fieldType: 'Tx', fieldValue: 'secret', password: true })).toBeUndefined();
    expect(widget({ fieldType: 'Tx', fieldValue: 'x', hidden: true })).toBeUndefined();
    expect(widget({ fieldType: 'Btn', fieldValue: 'Submit' })).toBeUndefined();
    expect(widgetValue({ subtype: 'Link', fieldType: 'Tx', fieldValue: 'x' })).toBeUndefined();
  });
});
