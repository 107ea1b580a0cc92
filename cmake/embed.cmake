# Turn the file IN into a C source OUT defining `const unsigned char SYM[]`
# (NUL-terminated) and `const size_t SYM_len` (length without the NUL).
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE ${OUT} "/* generated from ${IN} by cmake/embed.cmake */\n#include <stddef.h>\nconst unsigned char ${SYM}[] = {\n${body}0x00};\nconst size_t ${SYM}_len = ${bytes};\n")
