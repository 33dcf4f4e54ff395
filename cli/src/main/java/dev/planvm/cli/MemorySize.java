package dev.planvm.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Reads a size option: {@code 64MiB}, {@code 512KiB}, {@code 1GiB} (or {@code 64M}, {@code 64MB}: all binary), or plain. */
final class MemorySize implements CommandLine.ITypeConverter<Long> {

    private static final long MAX = 1L << 40;
    private static final Pattern SIZE =
            Pattern.compile("(\\d{1,15})\\s*(?:([kmg])(?:i?b)?|b)?", Pattern.CASE_INSENSITIVE);

    @Override
    public Long convert(String value) {
        Matcher matcher = SIZE.matcher(value.strip());
        if (!matcher.matches()) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a size: write e.g. 64MiB, 512KiB, 1GiB");
        }
        long number = Long.parseLong(matcher.group(1));
        String unit = matcher.group(2) == null ? "" : matcher.group(2).toLowerCase(Locale.ROOT);
        int shift = switch (unit) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 0;
        };
        if (number < 1 || number > MAX >> shift) {
            throw new CommandLine.TypeConversionException("'" + value + "' must be at least 1 and at most 1024GiB");
        }
        return number << shift;
    }
}
