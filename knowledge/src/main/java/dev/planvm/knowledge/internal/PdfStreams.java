package dev.planvm.knowledge.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDocument;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObjectKey;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.filter.FilterFactory;
import org.apache.pdfbox.pdmodel.PDDocument;

/**
 * Bounds what a PDF's streams inflate to before PDFBox decodes them: PDFBox decodes a whole stream into
 * memory, so one Flate stream of a few hundred kilobytes that inflates to hundreds of megabytes (a
 * decompression bomb) would exhaust the heap. Two passes, both streaming into a counter (nothing kept),
 * both stopped at the time budget of the document (checked at every mebibyte inflated and every 1,024
 * streams):
 *
 * <ul>
 *   <li>{@link #scanFile} before PDFBox loads the file: every zlib stream of the raw bytes (what loading
 *       decodes — cross-reference and object streams — and everything else not encrypted);</li>
 *   <li>{@link #scanLoaded} after: every stream through PDFBox's own general-purpose filters (Flate,
 *       LZW, run-length, ASCII), decrypted. Image streams are emptied instead: text extraction never
 *       decodes an image, and an emptied one cannot be decoded as anything else either.</li>
 * </ul>
 *
 * A stream that inflates past {@link #MAX_STREAM_BYTES} stops the document with a
 * {@link DocumentException#skipped skipped} one.
 */
final class PdfStreams {

    /** The most one stream of a PDF may inflate to: far above a page's content, a font or a cross-reference table. */
    static final long MAX_STREAM_BYTES = 16L << 20;

    private static final Set<COSName> GENERAL = Set.of(
            COSName.FLATE_DECODE,
            COSName.FLATE_DECODE_ABBREVIATION,
            COSName.LZW_DECODE,
            COSName.LZW_DECODE_ABBREVIATION,
            COSName.RUN_LENGTH_DECODE,
            COSName.RUN_LENGTH_DECODE_ABBREVIATION,
            COSName.ASCII_HEX_DECODE,
            COSName.ASCII_HEX_DECODE_ABBREVIATION,
            COSName.ASCII85_DECODE,
            COSName.ASCII85_DECODE_ABBREVIATION);

    private static final Pattern IMAGE = Pattern.compile("/Subtype\\s*/Image\\b");
    private static final Pattern LOADED_WHILE_PARSING = Pattern.compile("/Type\\s*/(XRef|ObjStm)\\b");
    private static final byte[] STREAM = "stream".getBytes(StandardCharsets.ISO_8859_1);

    private final long maxStreamBytes;
    private final long deadline;
    private final String budget;
    /** Bytes inflated so far by both passes. */
    private long inflated;

    /**
     * @param deadline {@link System#nanoTime()} by which the document must be read
     * @param budget   the time budget, for the message ({@code 60 s})
     */
    PdfStreams(long maxStreamBytes, long deadline, String budget) {
        this.maxStreamBytes = maxStreamBytes;
        this.deadline = deadline;
        this.budget = budget;
    }

    /** Inflates every zlib stream of the file's bytes that is not an image, into a counter. */
    void scanFile(byte[] bytes) throws DocumentException {
        byte[] buffer = new byte[64 * 1024];
        int found = 0;
        for (int i = indexOf(bytes, STREAM, 0); i >= 0; i = indexOf(bytes, STREAM, i + STREAM.length)) {
            if (++found % 1024 == 0) {
                checkTime(); // a file of many tiny streams
            }
            int data = streamData(bytes, i);
            if (data < 0 || data + 2 > bytes.length || !zlibHeader(bytes[data], bytes[data + 1])) {
                continue;
            }
            String dictionary = dictionaryBefore(bytes, i);
            if (IMAGE.matcher(dictionary).find()
                    && !LOADED_WHILE_PARSING.matcher(dictionary).find()) {
                continue; // emptied once loaded (scanLoaded): never decoded
            }
            Inflater inflater = new Inflater();
            try {
                inflater.setInput(bytes, data, bytes.length - data);
                long stream = 0;
                while (!inflater.finished() && !inflater.needsInput() && !inflater.needsDictionary()) {
                    int n = inflater.inflate(buffer);
                    if (n == 0) {
                        break;
                    }
                    stream += n;
                    account(stream, n);
                }
            } catch (DataFormatException damaged) {
                // not a stream PDFBox can inflate either: it says so when it reads it
            } finally {
                inflater.end();
            }
        }
    }

    /**
     * Counts what every stream of the loaded document inflates to through PDFBox's general-purpose
     * filters; empties image streams.
     */
    void scanLoaded(PDDocument pdf) throws DocumentException {
        COSDocument document = pdf.getDocument();
        int objects = 0;
        for (Map.Entry<COSObjectKey, Long> entry : document.getXrefTable().entrySet()) {
            if (entry.getValue() == null || entry.getValue() < 0) {
                continue; // an object inside an object stream: never a stream itself
            }
            if (++objects % 1024 == 0) {
                checkTime();
            }
            COSBase object;
            try {
                object = document.getObjectFromPool(entry.getKey()).getObject();
            } catch (RuntimeException damaged) {
                continue;
            }
            if (object instanceof COSStream stream) {
                if (COSName.IMAGE.equals(stream.getCOSName(COSName.SUBTYPE))) {
                    empty(stream);
                } else {
                    inflate(stream);
                }
            }
        }
    }

    private void inflate(COSStream stream) throws DocumentException {
        List<COSName> filters = filters(stream.getFilters());
        if (filters.isEmpty()) {
            return;
        }
        try (InputStream raw = stream.createRawInputStream()) {
            InputStream input = raw;
            for (int i = 0; i < filters.size() && GENERAL.contains(filters.get(i)); i++) {
                boolean last = i + 1 == filters.size() || !GENERAL.contains(filters.get(i + 1));
                Counter output = new Counter(last ? null : new ByteArrayOutputStream());
                FilterFactory.INSTANCE.getFilter(filters.get(i)).decode(input, output, stream, i);
                if (!last) {
                    input = new ByteArrayInputStream(output.kept.toByteArray());
                }
            }
        } catch (Stop stop) {
            throw stop.exception;
        } catch (IOException | RuntimeException damaged) {
            // PDFBox says what is wrong with it when it reads it
        }
    }

    /** Replaces an image's data by nothing (the document is read, never written). */
    private static void empty(COSStream stream) {
        try {
            stream.createRawOutputStream().close();
            stream.removeItem(COSName.FILTER);
            stream.removeItem(COSName.DECODE_PARMS);
        } catch (IOException | RuntimeException cannot) {
            // left as it is: text extraction does not decode images
        }
    }

    private static List<COSName> filters(COSBase filters) {
        List<COSName> names = new ArrayList<>();
        if (filters instanceof COSName name) {
            names.add(name);
        } else if (filters instanceof COSArray array) {
            for (int i = 0; i < array.size(); i++) {
                if (array.getObject(i) instanceof COSName name) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /**
     * Counts {@code n} more bytes inflated, {@code stream} so far in the current stream: past the limit
     * the document is skipped, and past its time budget (checked at every mebibyte inflated) too.
     */
    private void account(long stream, int n) throws DocumentException {
        if (stream > maxStreamBytes) {
            throw tooLarge();
        }
        long before = inflated;
        inflated += n;
        if (inflated >> 20 != before >> 20) {
            checkTime();
        }
    }

    private void checkTime() throws DocumentException {
        if (System.nanoTime() - deadline > 0) {
            throw DocumentException.skipped("its streams take more than " + budget + " to inflate");
        }
    }

    private DocumentException tooLarge() {
        return DocumentException.skipped("it holds a stream that inflates to more than " + (maxStreamBytes >> 20)
                + " MiB, the limit for one PDF stream (a decompression bomb?)");
    }

    /** Counts what a filter writes (keeping it when {@code kept} is not null), stopping it at the limits. */
    private final class Counter extends OutputStream {
        final ByteArrayOutputStream kept;
        private long count;

        Counter(ByteArrayOutputStream kept) {
            this.kept = kept;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            count += len;
            try {
                account(count, len);
            } catch (DocumentException e) {
                throw new Stop(e);
            }
            if (kept != null) {
                kept.write(b, off, len);
            }
        }
    }

    /** Carries a limit's {@link DocumentException} out of a PDFBox filter. */
    private static final class Stop extends IOException {
        private static final long serialVersionUID = 1L;

        final DocumentException exception;

        Stop(DocumentException exception) {
            super(exception.getMessage(), null);
            this.exception = exception;
        }
    }

    /** Where the data of the stream whose keyword is at {@code at} starts, or -1 when it is not a stream keyword. */
    private static int streamData(byte[] bytes, int at) {
        if (at >= 3 && bytes[at - 3] == 'e' && bytes[at - 2] == 'n' && bytes[at - 1] == 'd') {
            return -1; // endstream
        }
        int data = at + STREAM.length;
        if (data < bytes.length && bytes[data] == '\r') {
            data++;
        }
        if (data < bytes.length && bytes[data] == '\n') {
            return data + 1;
        }
        return data > at + STREAM.length ? data : -1;
    }

    /** Whether two bytes start a zlib stream (deflate, header checksum right). */
    private static boolean zlibHeader(byte cmf, byte flg) {
        return (cmf & 0x0f) == 8 && (((cmf & 0xff) << 8) | (flg & 0xff)) % 31 == 0;
    }

    /** The text from the {@code obj} keyword before {@code at} (at most 64 KiB back) to {@code at}. */
    private static String dictionaryBefore(byte[] bytes, int at) {
        int from = Math.max(0, at - 64 * 1024);
        for (int i = at - 3; i >= from; i--) {
            if (bytes[i] == 'o' && bytes[i + 1] == 'b' && bytes[i + 2] == 'j') {
                from = i;
                break;
            }
        }
        return new String(bytes, from, at - from, StandardCharsets.ISO_8859_1);
    }

    private static int indexOf(byte[] bytes, byte[] pattern, int from) {
        outer:
        for (int i = from; i <= bytes.length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (bytes[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
