package dev.planvm.dialects.internal.ppe;

/**
 * The whitespace around Jinja statements ({@code {% ... %}}) and comments ({@code {# ... #}}), as the reference's
 * Jinja (Hugging Face's, with {@code trim_blocks} and {@code lstrip_blocks}) leaves it: the spaces before a tag
 * that starts its line go, and so does the line break just after a tag; {@code {%-} removes every blank before
 * the tag, {@code -%}} every blank after it. The tags are given back without their {@code -}.
 */
final class JinjaSpace {

    private JinjaSpace() {}

    static String apply(String text) {
        if (!text.contains("{%") && !text.contains("{#")) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            boolean statement = text.startsWith("{%", i);
            boolean comment = text.startsWith("{#", i);
            if (!statement && !comment) {
                out.append(text.charAt(i++));
                continue;
            }
            String close = statement ? "%}" : "#}";
            int end = text.indexOf(close, i + 2);
            if (end < 0) {
                out.append(text, i, text.length());
                break;
            }
            String inner = text.substring(i + 2, end);
            boolean left = inner.startsWith("-");
            boolean right = inner.endsWith("-") && inner.length() > 1;
            if (left) {
                while (out.length() > 0 && Character.isWhitespace(out.charAt(out.length() - 1))) {
                    out.setLength(out.length() - 1);
                }
            } else {
                int back = out.length();
                while (back > 0 && (out.charAt(back - 1) == ' ' || out.charAt(back - 1) == '\t')) {
                    back--;
                }
                if (back == 0 || out.charAt(back - 1) == '\n') {
                    out.setLength(back); // lstrip_blocks: the tag starts its line
                }
            }
            String bare = inner.substring(left ? 1 : 0, inner.length() - (right ? 1 : 0));
            out.append(text, i, i + 2).append(bare).append(close);
            i = end + 2;
            if (right) {
                while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                    i++;
                }
            } else if (i < text.length() && text.charAt(i) == '\n') {
                i++; // trim_blocks: the line break after a tag
            }
        }
        return out.toString();
    }
}
