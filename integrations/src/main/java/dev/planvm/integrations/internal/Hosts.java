package dev.planvm.integrations.internal;

import java.util.List;

/** The host a URL (or a URL template) names: its {@code host[:port]}, what {@code Tool.hosts()} reports. */
public final class Hosts {

    private Hosts() {}

    /**
     * The {@code host[:port]} of {@code url}, user info left out; a host made of params stays a template
     * ({@code ${region}.example.com}); none when the text has no {@code scheme://}.
     */
    public static List<String> of(String url) {
        if (url == null) {
            return List.of();
        }
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return List.of();
        }
        int start = scheme + 3;
        int end = url.length();
        for (char stop : new char[] {'/', '?', '#'}) {
            int at = indexOutsideBraces(url, stop, start);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        String authority = url.substring(start, end);
        int user = authority.lastIndexOf('@');
        if (user >= 0 && authority.indexOf("${") < 0) {
            authority = authority.substring(user + 1);
        }
        return authority.isEmpty() ? List.of() : List.of(authority);
    }

    /** The first {@code c} at or after {@code from} that is not inside a {@code ${...}}. */
    private static int indexOutsideBraces(String text, char c, int from) {
        int depth = 0;
        for (int i = from; i < text.length(); i++) {
            char at = text.charAt(i);
            if (at == '$' && i + 1 < text.length() && text.charAt(i + 1) == '{') {
                depth++;
                i++;
            } else if (at == '}' && depth > 0) {
                depth--;
            } else if (at == c && depth == 0) {
                return i;
            }
        }
        return -1;
    }
}
