package dev.planvm.server.internal;

/** HTML escaping for text and attribute values (untrusted: plans, tool outputs, error messages). */
public final class Html {

    private Html() {}

    /** {@code text} with {@code & < > " '} escaped, safe in element content and quoted attribute values. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
                        out.append("&#xFFFD;");
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /** At most {@code max} characters of {@code text}, with a note of how much was left out. */
    public static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        return text.substring(0, max) + "… (" + (text.length() - max) + " more characters)";
    }
}
