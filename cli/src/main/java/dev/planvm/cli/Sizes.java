package dev.planvm.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Reads sizes such as {@code 1000}, {@code 64KiB}, {@code 256MiB}, {@code 1GiB} (also KB/MB/GB, meaning the same). */
final class Sizes implements CommandLine.ITypeConverter<Long> {

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmg]?)(i?b)?", Pattern.CASE_INSENSITIVE);

    @Override
    public Long convert(String value) {
        Matcher m = SIZE.matcher(value.strip());
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a size such as 1000, 64KiB, 256MiB or 1GiB");
        }
        long unit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 1024L;
            case "m" -> 1024L * 1024;
            case "g" -> 1024L * 1024 * 1024;
            default -> 1L;
        };
        try {
            long size = Math.multiplyExact(Long.parseLong(m.group(1)), unit);
            if (size < 1) {
                throw new CommandLine.TypeConversionException("a size must be at least 1 byte");
            }
            return size;
        } catch (ArithmeticException | NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is too large");
        }
    }
}
