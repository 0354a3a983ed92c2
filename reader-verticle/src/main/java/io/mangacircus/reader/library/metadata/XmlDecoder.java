package io.mangacircus.reader.library.metadata;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns an XML file's bytes into text before it is parsed, by its byte order mark, else its declared encoding, else
 * UTF-8 (XML 1.0 appendix F), refusing bytes that are not valid in that encoding. Decoding here rather than in the
 * JDK's parser because that parser prints a "[Fatal Error]" line to standard error for every invalid byte sequence.
 */
final class XmlDecoder {

  private static final Pattern DECLARED =
      Pattern.compile("^<\\?xml[^>]*?\\sencoding\\s*=\\s*[\"']([A-Za-z0-9._:-]{1,40})[\"']");

  private XmlDecoder() {
  }

  /** The file's text, or why its bytes cannot be read as text; exactly one of the two is set. */
  record Decoded(String text, String problem) {
  }

  static Decoded decode(byte[] xml) {
    Charset charset;
    int skip = 0;
    if (startsWith(xml, 0xEF, 0xBB, 0xBF)) {
      charset = StandardCharsets.UTF_8;
      skip = 3;
    } else if (startsWith(xml, 0xFE, 0xFF) || startsWith(xml, 0x00, '<')) {
      charset = StandardCharsets.UTF_16BE;
      skip = xml[0] == 0 ? 0 : 2;
    } else if (startsWith(xml, 0xFF, 0xFE) || startsWith(xml, '<', 0x00)) {
      charset = StandardCharsets.UTF_16LE;
      skip = xml[0] == '<' ? 0 : 2;
    } else {
      String name = declaredName(xml);
      try {
        charset = name == null ? StandardCharsets.UTF_8 : Charset.forName(name);
      } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
        return new Decoded(null, "declares an encoding this server does not know: " + name);
      }
    }
    try {
      return new Decoded(charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(xml, skip, xml.length - skip)).toString(), null);
    } catch (CharacterCodingException e) {
      return new Decoded(null, "holds bytes that are not valid " + charset.name());
    }
  }

  /** The encoding the XML declaration names, or null when there is none. */
  private static String declaredName(byte[] xml) {
    String head = new String(xml, 0, Math.min(xml.length, 256), StandardCharsets.ISO_8859_1);
    Matcher matcher = DECLARED.matcher(head);
    return matcher.find() ? matcher.group(1) : null;
  }

  private static boolean startsWith(byte[] bytes, int... prefix) {
    if (bytes.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if ((bytes[i] & 0xFF) != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
