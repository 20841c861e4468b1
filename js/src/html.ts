/** Just enough HTML reading for the emulator's pages: a form's action and hidden inputs, and a page's visible text. */

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'" };

/** Decodes character references (`&amp;`, `&#39;`, `&#x2F;`). */
export function decodeEntities(text: string): string {
    return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, name: string) => {
        if (name.startsWith("#x")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
        if (name.startsWith("#") && name !== "#39") return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
        return ENTITIES[name] ?? whole;
    });
}

/** The attributes of every `<tag …>` in `html`, in order (names lowercased, values decoded). */
export function tags(html: string, tag: string): Array<Record<string, string>> {
    const found: Array<Record<string, string>> = [];
    const opening = new RegExp(`<${tag}\\b([^>]*)>`, "gi");
    for (const match of html.matchAll(opening)) {
        const attributes: Record<string, string> = {};
        const source = match[1] ?? "";
        for (const attribute of source.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
            const name = (attribute[1] ?? "").toLowerCase();
            attributes[name] = decodeEntities(attribute[2] ?? attribute[3] ?? attribute[4] ?? "");
        }
        found.push(attributes);
    }
    return found;
}

/** The emulator's self-submitting form_post page: its first form's action and its hidden inputs. */
export function formPost(html: string): { action: string; fields: Record<string, string> } | null {
    const action = tags(html, "form")[0]?.["action"];
    if (!action) return null;
    const fields: Record<string, string> = {};
    for (const input of tags(html, "input")) {
        const name = input["name"];
        if (input["type"] === "hidden" && name !== undefined) fields[name] = input["value"] ?? "";
    }
    return { action, fields };
}

/** The text a person sees on the page (scripts, styles and images left out), whitespace collapsed. */
export function visibleText(html: string): string {
    const stripped = html.replace(/<(script|style|svg)\b[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " ");
    return decodeEntities(stripped).replace(/\s+/g, " ").trim();
}
