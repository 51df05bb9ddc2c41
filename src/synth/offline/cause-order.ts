/**
 * The templates that name the item before a cause that points back at it ("a friend introduced
 * me to it"): "it" said before the thing it stands for reads as some earlier thing, or nothing.
 */
export function causeAfter(
  templates: readonly string[],
  vars: Record<string, string>,
  item: string,
): readonly string[] {
  if (!/\bit\b/i.test(vars.cause ?? '')) return templates;
  const after = templates.filter((template) => {
    const cause = template.indexOf('{cause}');
    return cause < 0 || (template.includes(item) && template.indexOf(item) < cause);
  });
  return after.length > 0 ? after : templates;
}
