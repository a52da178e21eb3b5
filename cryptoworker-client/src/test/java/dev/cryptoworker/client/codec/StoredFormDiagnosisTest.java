package dev.cryptoworker.client.codec;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A schema changed under stored data: the error says what the cell was written as. No HBase. */
class StoredFormDiagnosisTest {
  private static final byte[] F = toBytes("f");
  private static final byte[] ROW = toBytes("P1");

  private static TableSchema schema(BoxKind mainId, boolean listed) {
    FamilySchema.Builder f = FamilySchema.builder("f").defaultPolicy(ColumnPolicy.of(BoxKind.STD, ValueType.STRING));
    if (listed) {
      f.column("mainId", ColumnPolicy.of(mainId, ValueType.STRING));
    }
    return TableSchema.builder("patients").rowKey(ColumnPolicy.of(BoxKind.DET)).family(f.build()).build();
  }

  @Test
  void aColumnMovedFromStdToDetNamesBothBoxes() throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    byte[] stored = new TableCodec(schema(BoxKind.STD, true), keys).encodeValue(ROW, F, toBytes("mainId"), toBytes("PT-1"));
    CellDecodingException e = assertThrows(CellDecodingException.class,
        () -> new TableCodec(schema(BoxKind.DET, true), keys).decodeValue(ROW, F, toBytes("mainId"), stored));
    assertTrue(e.reason().contains("written as STD") && e.reason().contains("schema says DET"), e.reason());
  }

  @Test
  void aColumnTakenOutOfTheFamilyDefaultSaysSo() throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    byte[] stored = new TableCodec(schema(BoxKind.STD, false), keys).encodeValue(ROW, F, toBytes("mainId"), toBytes("PT-1"));
    CellDecodingException e = assertThrows(CellDecodingException.class,
        () -> new TableCodec(schema(BoxKind.DET, true), keys).decodeValue(ROW, F, toBytes("mainId"), stored));
    assertTrue(e.reason().contains("written as STD under the family default's keys"), e.reason());
  }

  @Test
  void otherwiseTheKeyIdOrThatItIsNotOurFormat() throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    byte[] stored = new TableCodec(schema(BoxKind.DET, true), SecureFixture.randomKeys())
        .encodeValue(ROW, F, toBytes("mainId"), toBytes("PT-1"));
    TableCodec reader = new TableCodec(schema(BoxKind.DET, true), keys);
    CellDecodingException wrongKey = assertThrows(CellDecodingException.class,
        () -> reader.decodeValue(ROW, F, toBytes("mainId"), stored));
    assertTrue(wrongKey.reason().contains("key id"), wrongKey.reason());
    // format 2's header is one byte: take a plain value whose first byte names no key of the reader's
    byte[] plainValue = IntStream.range(0, 256).mapToObj(b -> new byte[] {(byte) b, 'T', '-', '1'})
        .filter(v -> reader.keyIdOf(v, BoxKind.DET).isEmpty()).findFirst().orElseThrow();
    CellDecodingException plain = assertThrows(CellDecodingException.class,
        () -> reader.decodeValue(ROW, F, toBytes("mainId"), plainValue));
    assertTrue(plain.reason().contains("not in CryptoWorker's format"), plain.reason());
    byte[] lookalike = IntStream.range(0, 256).mapToObj(b -> new byte[] {(byte) b, 'T', '-', '1'})
        .filter(v -> reader.keyIdOf(v, BoxKind.DET).isPresent()).findFirst().orElseThrow();
    CellDecodingException byChance = assertThrows(CellDecodingException.class,
        () -> reader.decodeValue(ROW, F, toBytes("mainId"), lookalike));
    assertTrue(byChance.reason().contains("matches key id") && byChance.reason().contains("by chance"),
        byChance.reason());
  }
}
